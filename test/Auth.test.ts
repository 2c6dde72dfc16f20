import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { inject } from "vitest"
import { withProbeServer } from "./support/ProbeApi.js"
import { get, postJson } from "./support/TestServer.js"

const whoami = (headers: Record<string, string> = {}) => get("/probe/whoami", headers)

const unauthorized = {
  ok: false,
  error: "unauthorized",
  status: 401,
  safe_next_step:
    "Send the partner API token as 'Authorization: Bearer <token>' or 'X-Service-Requests-Token: <token>'."
}

describe("authentication", () => {
  it.live("development without a configured token lets a request without a token through as anonymous", () =>
    Effect.gen(function* () {
      const response = yield* whoami()
      expect(response).toMatchObject({ status: 200, body: { partner_id: "anonymous" } })
    }).pipe(withProbeServer({ APP_ENV: "development" }))
  )

  for (const appEnv of ["development", "production"] as const) {
    const env = {
      APP_ENV: appEnv,
      SERVICE_REQUESTS_API_TOKENS: "alpha-token-0123456789, beta-token-9876543210,",
      PUBLIC_BASE_URL: "https://api.example.se",
      DATABASE_URL: inject("databaseUrl")
    }

    it.live(`${appEnv} with configured tokens: no token or a wrong token is 401 in either header`, () =>
      Effect.gen(function* () {
        for (const headers of [
          {},
          { authorization: "Bearer alpha-token-012345678" },
          { "x-service-requests-token": "alpha-token-01234567890" },
          { authorization: "Basic YWxwaGEtdG9rZW4tMDEyMzQ1Njc4OQ==" },
          { authorization: "Digest alpha-token-0123456789" },
          { authorization: "Token alpha-token-0123456789" },
          { authorization: "alpha-token-0123456789" },
          { authorization: "Bearer " }
        ]) {
          const response = yield* whoami(headers)
          expect(response.status, JSON.stringify(headers)).toBe(401)
          expect(response.body).toEqual(unauthorized)
        }
      }).pipe(withProbeServer(env))
    )

    it.live(`${appEnv} with configured tokens: a token is accepted as Bearer or as X-Service-Requests-Token`, () =>
      Effect.gen(function* () {
        const bearer = yield* whoami({ authorization: "Bearer alpha-token-0123456789" })
        for (const scheme of ["bearer", "BEARER", "BeArEr"]) {
          const response = yield* whoami({ authorization: `${scheme} alpha-token-0123456789` })
          expect(response.body, scheme).toEqual(bearer.body)
        }
        const header = yield* whoami({ "x-service-requests-token": "alpha-token-0123456789" })
        const other = yield* whoami({ "x-service-requests-token": "beta-token-9876543210" })
        expect(bearer.status).toBe(200)
        expect(header.body).toEqual(bearer.body)
        expect(other.status).toBe(200)
        expect(other.body.partner_id).not.toBe(bearer.body.partner_id)
        expect(bearer.body.partner_id).toMatch(/^token-[0-9a-f]{12}$/)
      }).pipe(withProbeServer(env))
    )
  }

  it.live(
    "production without a configured token: confirm and status are 401, request creation 503, open endpoints answer",
    () =>
      Effect.gen(function* () {
        for (const headers of [{}, { authorization: "Bearer anything-at-all" }]) {
          const whoamiResponse = yield* whoami(headers)
          expect(whoamiResponse.status).toBe(401)
          expect(whoamiResponse.body).toEqual(unauthorized)
          const status = yield* get("/api/public/bookings/bkg_0123456789abcdef", headers)
          expect(status.status).toBe(401)
          expect(status.body).toEqual(unauthorized)
          const created = yield* postJson("/api/public/requests", {}, headers)
          expect(created.status).toBe(503)
          expect(created.body).toEqual({
            ok: false,
            error: "auth_not_configured",
            status: 503,
            safe_next_step:
              "The service has no API token configured; the operator must set SERVICE_REQUESTS_API_TOKENS or issue a partner token (npm run partner)."
          })
        }
        expect((yield* get("/api/public/requests/capabilities")).status).toBe(200)
      }).pipe(
        withProbeServer({
          APP_ENV: "production",
          PUBLIC_BASE_URL: "https://api.example.se",
          DATABASE_URL: inject("databaseUrl")
        })
      )
  )
})
