import { Effect } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { makeDocument, serveDocument } from "../Http/DocumentCache.js"
import { ErrorCatalogue } from "./Api.js"
import { errorCatalogue } from "./Catalogue.js"

export const ErrorsLive = HttpApiBuilder.group(Api, "errors", (handlers) =>
  Effect.sync(() => {
    const body = ErrorCatalogue.make({ ok: true, errors: errorCatalogue() })
    const document = makeDocument(JSON.stringify(body), "application/json")
    return handlers.handle("catalogue", () => serveDocument(document, { "cache-control": "public, max-age=3600" }))
  })
)
