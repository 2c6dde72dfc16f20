import { Effect } from "effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { Api } from "../Api.js"
import { AppConfig } from "../AppConfig.js"
import { makeDocument, serveDocument } from "../Http/DocumentCache.js"
import { openApiDocument } from "../Http/OpenApiDocument.js"
import { renderDocsPage } from "./Page.js"
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
 * `/openapi.json`, `/docs` and the standard withdrawal form, each built once from the Api the server runs (its servers the
 * PUBLIC_BASE_URL), compressed and
 * served with ETags (in place of the platform's OpenAPI middleware and Scalar page).
 */
export const DocsLive = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const spec = openApiDocument(Api, config.publicBaseUrl)
    const openapi = makeDocument(JSON.stringify(spec), "application/json")
    const docs = makeDocument(renderDocsPage(spec), "text/html; charset=utf-8")
    yield* router.add("GET", openApiPath, serveDocument(openapi, { "cache-control": "public, max-age=60" }))
    yield* router.add("GET", pagePath, serveDocument(docs, docsHeaders))
    const form = makeDocument(withdrawalFormHtml, "text/html; charset=utf-8")
    yield* router.add("GET", withdrawalFormRoute, serveDocument(form, docsHeaders))
  })
)
