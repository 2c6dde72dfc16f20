import { Schema } from "effect"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { documented } from "../Http/OperationDocs.js"

export const ErrorCatalogueEntry = Schema.Struct({
  error: Schema.String,
  status: Schema.Int,
  meaning: Schema.String,
  retry_safe: Schema.Boolean,
  recovery: Schema.String
}).annotate({ identifier: "ErrorCatalogueEntry" })

export const ErrorCatalogue = Schema.Struct({
  ok: Schema.Literal(true),
  errors: Schema.Array(ErrorCatalogueEntry)
}).annotate({ identifier: "ErrorCatalogue" })
export type ErrorCatalogue = typeof ErrorCatalogue.Type

const example = {
  response: {
    ok: true,
    errors: [
      {
        error: "slot_taken",
        status: 409,
        meaning: "The slot is no longer free in the provider's calendar",
        retry_safe: false,
        recovery:
          "Search again and offer the user another time; nothing was booked (on a reschedule the booking at its old time still stands)."
      }
    ]
  }
}

export class ErrorsApi extends HttpApiGroup.make("errors")
  .add(
    HttpApiEndpoint.get("catalogue", "/api/public/errors", { success: ErrorCatalogue }).annotateMerge(
      documented("Every error code the API answers with, and what to do about it", {
        example,
        description:
          "The error catalogue (also docs/errors.md): each `error` value, its HTTP status, its meaning, whether sending the same request again with the same idempotency key is safe and can succeed (`retry_safe`), and the recovery step. No token needed; cached with an ETag: send `If-None-Match` to get 304.",
        cached: true
      })
    )
  )
  .annotate(OpenApi.Title, "Errors")
  .annotate(
    OpenApi.Description,
    "Every error code the API answers with: its status, meaning, whether a retry is safe, and what to do."
  ) {}
