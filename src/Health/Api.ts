import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
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
  .annotate(OpenApi.Title, "Health") {}
