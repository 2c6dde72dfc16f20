import { describe, expect, it } from "@effect/vitest"
import * as OpenApi from "effect/http-api/OpenApi"
import { Api } from "../../src/Api.js"
import { limitedOperationsOf } from "../../src/Http/RateLimitClass.js"

describe("an endpoint's rate-limit class", () => {
  it("is declared on the endpoint, and the OpenAPI document lists RateLimit headers exactly on those", () => {
    const limited = limitedOperationsOf(Object.values(Api.groups))
    expect([...limited].sort()).toEqual([
      "bookings.cancel",
      "bookings.confirm",
      "bookings.reschedule",
      "requests.create",
      "search.search"
    ])
    const document = OpenApi.fromApi(Api) as any
    for (const methods of Object.values<any>(document.paths)) {
      for (const operation of Object.values<any>(methods)) {
        for (const response of Object.values<any>(operation.responses)) {
          expect([operation.operationId, "RateLimit" in (response.headers ?? {})]).toEqual([
            operation.operationId,
            limited.has(operation.operationId)
          ])
        }
      }
    }
  })
})
