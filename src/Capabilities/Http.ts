import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { CapabilitiesDocument } from "./Document.js"

export const CapabilitiesLive = HttpApiBuilder.group(Api, "capabilities", (handlers) =>
  Effect.gen(function* () {
    const document = yield* CapabilitiesDocument
    return handlers.handle("capabilities", ({ request }) =>
      Effect.map(document.current, ({ body, etag }) => {
        const headers = { etag, "cache-control": "public, max-age=60" }
        return request.headers["if-none-match"] === etag
          ? HttpServerResponse.empty({ status: 304, headers })
          : HttpServerResponse.uint8Array(body, { contentType: "application/json", headers })
      })
    )
  })
)
