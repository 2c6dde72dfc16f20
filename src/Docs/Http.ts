import { Effect } from "effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { AppConfig } from "../AppConfig.js"
import { makeDocument, serveDocument } from "../Http/DocumentCache.js"
import { openApiPath, pagePath, withdrawalFormRoute } from "./Paths.js"
import { withdrawalFormHtml } from "./WithdrawalForm.js"

/** The page needs nothing from anywhere, and the browser is told to load nothing from anywhere. */
const docsHeaders = {
  "cache-control": "public, max-age=60",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff"
}

/**
 * `/openapi.json`, `/docs` and the standard withdrawal form, each built from the Api the server
 * runs (its servers the PUBLIC_BASE_URL), compressed and served with ETags (in place of the
 * platform's OpenAPI middleware and Scalar page). Few clients ask for them and building them is
 * most of a second of CPU and a few MB kept (the document, its page, brotli and gzip of each), so
 * they are built by the first request for one, not by the start, and the modules that build them
 * are loaded then too.
 */
export const DocsLive = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const documents = Effect.cached(
      Effect.promise(async () => {
        const [{ Api }, { openApiDocument }, { renderDocsPage }] = await Promise.all([
          import("../Api.js"),
          import("../Http/OpenApiDocument.js"),
          import("./Page.js")
        ])
        const spec = openApiDocument(Api, config.publicBaseUrl)
        return {
          openapi: makeDocument(JSON.stringify(spec), "application/json"),
          docs: makeDocument(renderDocsPage(spec), "text/html; charset=utf-8")
        }
      })
    )
    const built = yield* documents
    yield* router.add(
      "GET",
      openApiPath,
      Effect.flatMap(built, ({ openapi }) => serveDocument(openapi, { "cache-control": "public, max-age=60" }))
    )
    yield* router.add(
      "GET",
      pagePath,
      Effect.flatMap(built, ({ docs }) => serveDocument(docs, docsHeaders))
    )
    const form = makeDocument(withdrawalFormHtml, "text/html; charset=utf-8")
    yield* router.add("GET", withdrawalFormRoute, serveDocument(form, docsHeaders))
  })
)
