import type { OperationExample } from "../Http/OperationDocs.js"

/** Example bodies of this folder's operations in the OpenAPI document: the README's "Try it" flow as the server answered it (test/Client.test.ts runs the same flow; long lists are cut to their first entries). */

export const healthzExample: OperationExample = {
  response: {
    ok: true
  }
}

export const readyzExample: OperationExample = {
  response: {
    ok: true,
    database: "up",
    warnings: []
  }
}

export const metricsExample: OperationExample = {
  response:
    "# HELP bookings_confirmed_total Bookings confirmed\n# TYPE bookings_confirmed_total counter\nbookings_confirmed_total 1\n"
}
