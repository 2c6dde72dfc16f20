import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { inject } from "vitest"
import { TestServer } from "../support/Server.js"
import { callTool, connect, initializeMessage, postMcp, requestArgs, searchArgs } from "./McpClient.js"

describe("MCP in production without a configured token, as REST", () => {
  it.layer(
    TestServer({
      env: {
        APP_ENV: "production",
        PUBLIC_BASE_URL: "https://api.example.se",
        DATABASE_URL: inject("databaseUrl"),
        DEMO_SUPPLY: "false"
      }
    })
  )((it) => {
    it.effect("production: search answers; confirm and status are 401 and requests 503, as tool errors", () =>
      Effect.gen(function* () {
        const own = yield* postMcp(initializeMessage, { origin: "https://api.example.se" })
        expect(own.status, JSON.stringify(own.body)).toBe(200)
        expect((yield* postMcp(initializeMessage, { origin: "http://127.0.0.1:8080" })).status).toBe(403)

        for (const headers of [{}, { authorization: "Bearer some-token-0123456789" }]) {
          const { client } = yield* connect(headers)
          const searched = yield* callTool(client, "search_booking_options", searchArgs)
          expect(searched.structuredContent).toMatchObject({ ok: true, direct_booking_available: false })
          const status = yield* callTool(client, "get_booking_status", { booking_id: "bkg_anything" })
          expect(status).toMatchObject({ isError: true, structuredContent: { error: "unauthorized", status: 401 } })
          const request = yield* callTool(client, "create_follow_up_request", requestArgs)
          expect(request).toMatchObject({
            isError: true,
            structuredContent: { error: "auth_not_configured", status: 503 }
          })
        }
      })
    )
  })
})
