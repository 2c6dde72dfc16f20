import type { OperationFacts } from "../Http/OperationDocs.js"
import { openapiExample, pageExample } from "./Examples.js"

export const openApiPath = "/openapi.json"
export const pagePath = "/docs"

const json = "application/json"

/** The facts of the paths the platform does not generate, as OperationDocs gives them of an endpoint. */
export const documentationFacts: ReadonlyMap<string, OperationFacts> = new Map([
  [
    "docs.openapi",
    {
      description: "This OpenAPI 3.1 document, built from the Api the server runs. Cached with an ETag.",
      cached: true,
      example: openapiExample
    }
  ],
  [
    "docs.page",
    { description: "This document rendered as an HTML page. Cached with an ETag.", cached: true, example: pageExample }
  ]
])

/**
 * The paths the platform does not generate: the document itself and its page (served by Http.ts),
 * as OpenAPI path objects. The server's route list (Http/Routes.ts) reads them from here.
 */
export const documentationPaths = {
  [openApiPath]: {
    get: {
      tags: ["Documentation"],
      operationId: "docs.openapi",
      summary: "This OpenAPI document",
      responses: {
        "200": { description: "The OpenAPI 3.1 document", content: { [json]: { schema: { type: "object" } } } }
      }
    }
  },
  [pagePath]: {
    get: {
      tags: ["Documentation"],
      operationId: "docs.page",
      summary: "This document as a page",
      responses: {
        "200": { description: "The rendered page", content: { "text/html": { schema: { type: "string" } } } }
      }
    }
  }
}
