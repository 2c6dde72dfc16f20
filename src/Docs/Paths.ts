import { withdrawalFormPath } from "../Domain/Withdrawal.js"
import type { PathsBeside } from "../Http/OpenApiDocument.js"
import type { OperationFacts } from "../Http/OperationDocs.js"
import type { RouteBeside } from "../Http/Routes.js"
import { openapiExample, pageExample, withdrawalFormExample } from "./Examples.js"

export const openApiPath = "/openapi.json"
export const pagePath = "/docs"
export const withdrawalFormRoute = withdrawalFormPath

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
  ],
  [
    "docs.withdrawalForm",
    {
      description:
        "The standard withdrawal form (förordning (2014:19), bilaga I B till direktiv 2011/83/EU) in Swedish and English, as plain HTML. Every option's terms and every customer confirmation link it. Cached with an ETag.",
      cached: true,
      example: withdrawalFormExample
    }
  ]
])

/**
 * The paths the platform does not generate: the document itself and its page (served by Http.ts),
 * as OpenAPI path objects. The server's route list and the document both read them from here.
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
  },
  [withdrawalFormPath]: {
    get: {
      tags: ["Documentation"],
      operationId: "docs.withdrawalForm",
      summary: "The standard withdrawal form",
      responses: {
        "200": { description: "The form as a page", content: { "text/html": { schema: { type: "string" } } } }
      }
    }
  }
}

/** The documentation as the OpenAPI document shows it beside the Api's groups (Api.ts hands it over). */
export const documentation: PathsBeside = {
  tag: { name: "Documentation", description: "This document and its rendered page." },
  paths: documentationPaths,
  facts: documentationFacts
}

/** The routes of those paths, for the server's route list (Http.ts gathers it). */
export const documentationRoutesBeside: ReadonlyArray<RouteBeside> = Object.entries(documentationPaths).flatMap(
  ([path, operations]) => Object.keys(operations).map((method) => [method.toUpperCase(), path] as const)
)
