import type { OperationExample } from "../Http/OperationDocs.js"

/** Example bodies of this folder's operations in the OpenAPI document: the README's "Try it" flow as the server answered it (test/Client.test.ts runs the same flow; long lists are cut to their first entries). */

export const openapiExample: OperationExample = {
  response: {
    openapi: "3.1.0",
    info: { title: "Home-service booking API (Sweden)", version: "public_bookings_api_v1 / public_requests_api_v1" },
    paths: {}
  }
}

export const pageExample: OperationExample = {
  response:
    '<!doctype html><html lang="en"><head><title>Home-service booking API (Sweden)</title></head><body>…</body></html>'
}

export const withdrawalFormExample: OperationExample = {
  response:
    '<!doctype html><html lang="sv"><head><title>Standardformulär för utövande av ångerrätt / Model withdrawal form</title></head><body>…</body></html>'
}
