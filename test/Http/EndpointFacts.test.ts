import { describe, expect, it } from "@effect/vitest"
import * as OpenApi from "effect/http-api/OpenApi"
import { Api } from "../../src/Api.js"
import { confirmExample } from "../../src/Bookings/Examples.js"
import { operationFactsOf } from "../../src/Http/OperationDocs.js"
import { limitedOperationsOf } from "../../src/Http/RateLimitClass.js"
import { servedRoutes } from "../../src/Http.js"
import { listExample } from "../../src/Webhooks/Examples.js"
import { expectSwedishStamps } from "../support/Time.js"

describe("an endpoint's rate-limit class", () => {
  it("is declared on the endpoint, and the OpenAPI document lists RateLimit headers exactly on those", () => {
    const limited = limitedOperationsOf(Object.values(Api.groups))
    expect([...limited].sort()).toEqual([
      "bookings.cancel",
      "bookings.confirm",
      "bookings.reschedule",
      "holds.hold",
      "requests.create",
      "requests.withdraw",
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

  it("an endpoint's OperationDocs give its operation's description and body component names", () => {
    const facts = operationFactsOf(Object.values(Api.groups))
    const document = OpenApi.fromApi(Api) as any
    const confirm = document.paths["/api/public/bookings"].post
    expect(confirm.description).toBe(facts.get("bookings.confirm")?.description)
    expect(confirm.requestBody.content["application/json"].schema.$ref).toBe(
      "#/components/schemas/BookingConfirmationRequest"
    )
    // An endpoint without a description falls back to its summary.
    const list = document.paths["/api/public/webhooks"].get
    expect(facts.get("webhooks.list")?.description).toBeUndefined()
    expect(list.description).toBe(list.summary)
  })

  it("an endpoint's example, declared beside it in its folder's Examples.ts, is the example the document shows", () => {
    const facts = operationFactsOf(Object.values(Api.groups))
    const document = OpenApi.fromApi(Api) as any
    const confirm = document.paths["/api/public/bookings"].post
    expect(confirm.requestBody.content["application/json"].example).toEqual(confirmExample.request)
    expect(confirm.responses["201"].content["application/json"].example).toEqual(confirmExample.response)
    expect(facts.get("bookings.confirm")?.example).toBe(confirmExample)
    const list = document.paths["/api/public/webhooks"].get
    expect(list.responses["200"].content["application/json"].example).toEqual(listExample.response)
  })

  it("every example's date-times read as the answers' do: Swedish time to the second", () => {
    const document = OpenApi.fromApi(Api) as any
    const examples = Object.values<any>(document.paths).flatMap((methods) =>
      Object.values<any>(methods).flatMap((operation) => [
        operation.requestBody?.content?.["application/json"]?.example,
        ...Object.values<any>(operation.responses).map((response) => response.content?.["application/json"]?.example)
      ])
    )
    expect(expectSwedishStamps(examples)).toBeGreaterThan(20)
  })
})

describe("the server's routes", () => {
  it("include every operation the OpenAPI document lists, the documentation's own paths too, from one list", () => {
    const routes = servedRoutes.map((route) => `${route.method} ${route.template}`)
    const document = OpenApi.fromApi(Api) as any
    const documented = Object.entries<any>(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)
    )
    expect(documented).toEqual(expect.arrayContaining(["GET /openapi.json", "GET /docs"]))
    expect(routes).toEqual(expect.arrayContaining(documented))
  })
})
