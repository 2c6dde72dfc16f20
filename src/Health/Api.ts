import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { DatabaseUnavailable, errorBody } from "../Domain/Errors.js"

export class HealthApi extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("healthz", "/healthz")
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true) }))
      .annotate(OpenApi.Summary, "The process is up")
  )
  .add(
    HttpApiEndpoint.get("readyz", "/readyz")
      .addSuccess(Schema.Struct({ ok: Schema.Literal(true), database: Schema.Literal("up") }))
      .addError(errorBody(DatabaseUnavailable))
      .annotate(OpenApi.Summary, "The database answers")
  )
  .add(
    HttpApiEndpoint.get("metrics", "/metrics")
      .addSuccess(
        Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/plain; version=0.0.4" }))
      )
      .annotate(OpenApi.Summary, "Prometheus metrics of this instance")
  )
  .annotate(OpenApi.Title, "Health") {}
