import { Effect, Layer } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { serveDocument } from "../Http/DocumentCache.js"
import { CapabilitiesDocument } from "./Document.js"

export const CapabilitiesLive = HttpApiBuilder.group(Api, "capabilities", (handlers) =>
  Effect.gen(function* () {
    const document = yield* CapabilitiesDocument
    return handlers.handle("capabilities", () =>
      Effect.flatMap(document.current, (current) => serveDocument(current, { "cache-control": "public, max-age=60" }))
    )
  })
).pipe(Layer.provide(CapabilitiesDocument.Default))
