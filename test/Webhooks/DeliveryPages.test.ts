import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { apiClient, get, registerWebhook } from "../support/Http.js"
import { TestServer } from "../support/Server.js"

const token = "partner-pages-token-0123456789"
const auth = { authorization: `Bearer ${token}` }

describe("GET /api/public/webhooks/{id}/deliveries", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token }, loops: "none" }))((it) => {
    it.effect("pages newest first with a cursor: every delivery once, one written meanwhile on the next walk", () =>
      Effect.gen(function* () {
        const client = yield* apiClient(token)
        // Port 9 (discard) refuses: the attempts fail, the deliveries stay listed.
        const created = yield* registerWebhook(token, "http://127.0.0.1:9/hooks", ["webhook.test"])
        const webhook_id: string = created.body.webhook.id
        const made: Array<string> = []
        for (let i = 0; i < 7; i++) {
          // Two deliveries to a second: the id orders them.
          if (i % 2 === 0) yield* TestClock.adjust("1 second")
          made.push((yield* client.webhooks.test({ params: { webhook_id } })).delivery.id)
        }

        const seen: Array<string> = []
        let cursor: string | undefined
        let written: string | undefined
        do {
          const page = yield* client.webhooks.deliveries({
            params: { webhook_id },
            query: { limit: 3, ...(cursor === undefined ? {} : { cursor }) }
          })
          expect(page.deliveries.length).toBeLessThanOrEqual(3)
          seen.push(...page.deliveries.map((delivery) => delivery.id))
          cursor = page.next_cursor ?? undefined
          if (written === undefined) {
            yield* TestClock.adjust("1 second")
            written = (yield* client.webhooks.test({ params: { webhook_id } })).delivery.id
          }
        } while (cursor !== undefined)

        expect(seen).toHaveLength(7)
        expect(new Set(seen)).toEqual(new Set(made))
        const next = yield* client.webhooks.deliveries({ params: { webhook_id }, query: { limit: 3 } })
        expect(next.deliveries[0]?.id).toBe(written)

        const other = yield* registerWebhook(token, "http://127.0.0.1:9/other", ["webhook.test"])
        const first = yield* client.webhooks.deliveries({ params: { webhook_id }, query: { limit: 1 } })
        const borrowed = yield* get(
          `/api/public/webhooks/${other.body.webhook.id}/deliveries?cursor=${first.next_cursor}`,
          auth
        )
        expect(borrowed.status).toBe(400)
        expect(borrowed.body.issues[0]).toMatch(/^cursor: continues another list/)
        const altered = yield* get(`/api/public/webhooks/${webhook_id}/deliveries?cursor=${first.next_cursor}x`, auth)
        expect(altered.status).toBe(400)
        expect(altered.body.error).toBe("invalid_request")
      })
    )
  })
})
