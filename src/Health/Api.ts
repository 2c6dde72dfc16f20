import { Schema } from "effect"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { ContractError, errorBody, Unauthorized } from "../Domain/Errors.js"
import { documented } from "../Http/OperationDocs.js"
import { healthzExample, metricsExample, readyzExample } from "./Examples.js"

export class NotReady extends ContractError<NotReady>()(
  "not_ready",
  503,
  "This instance cannot do its job; `issues` says what is missing",
  {
    carries: ["issues"],
    retrySafe: true,
    recovery: "Send the request to another instance or again later; issues says what this instance is missing."
  }
) {}

export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("healthz", "/healthz", { success: Schema.Struct({ ok: Schema.Literal(true) }) }).annotateMerge(
      documented("The process is up", {
        example: healthzExample,
        description: "Answers 200 while the process is up; for liveness probes.",
        responseName: "Liveness"
      })
    )
  )
  .add(
    HttpApiEndpoint.get("readyz", "/readyz", {
      success: Schema.Struct({
        ok: Schema.Literal(true),
        database: Schema.Literal("up"),
        warnings: Schema.Array(Schema.String)
      }),
      error: errorBody(NotReady)
    }).annotateMerge(
      documented(
        "The instance can search and book: the database answers and, in production, signing keys, an API token and SMTP are configured",
        {
          example: readyzExample,
          description:
            "Answers 200 when this instance can search and book, 503 with the missing pieces when it cannot.",
          responseName: "Readiness"
        }
      )
    )
  )
  .add(
    HttpApiEndpoint.get("metrics", "/metrics", {
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/plain; version=0.0.4" })),
      error: errorBody(Unauthorized)
    }).annotateMerge(
      documented(
        "Prometheus metrics of this instance: needs 'Authorization: Bearer <METRICS_TOKEN>' when METRICS_TOKEN is set; not served in production without it",
        {
          example: metricsExample,
          description: "Prometheus metrics of this instance in the text exposition format."
        }
      )
    )
  )
  .annotate(OpenApi.Title, "Health")
  .annotate(
    OpenApi.Description,
    "Liveness, readiness and metrics of one instance, for operators and load balancers."
  ) {}
