import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Effect, Layer } from "effect"
import { Api } from "../Api.js"
import { serveDocument } from "../Documents.js"
import { CapabilitiesDocument } from "./Document.js"

export const CapabilitiesLive = HttpApiBuilder.group(Api, "capabilities", (handlers) =>
  Effect.gen(function* () {
    const document = yield* CapabilitiesDocument
    return handlers.handle("capabilities", () =>
      Effect.flatMap(document.current, (current) => serveDocument(current, { "cache-control": "public, max-age=60" }))
    )
  })
).pipe(Layer.provide(CapabilitiesDocument.Default))
