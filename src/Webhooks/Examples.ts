import type { OperationExample } from "../Http/OperationDocs.js"

/** Example bodies of this folder's operations in the OpenAPI document: the README's "Try it" flow as the server answered it (test/Client.test.ts runs the same flow; long lists are cut to their first entries). */

export const webhookExample = {
  id: "5d0c6a4e-8b7f-4f3e-9a2d-1c0b9e8f7a6d",
  url: "https://partner.example.se/hooks/booking",
  events: ["booking.confirmed", "booking.cancelled"],
  status: "enabled",
  sandbox: false,
  created_at: "2026-11-23T09:00:00+01:00"
}

export const webhookDeliveryExample = {
  id: "msg_9f8e7d6c5b4a49382716a5b4c3d2e1f0",
  event_type: "booking.confirmed",
  status: "delivered",
  attempts: 1,
  last_status_code: 204,
  created_at: "2026-11-23T09:00:00+01:00"
}

export const createExample: OperationExample = {
  request: { url: "https://partner.example.se/hooks/booking", events: ["booking.confirmed", "booking.cancelled"] },
  response: { ok: true, webhook: webhookExample, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=" }
}

export const listExample: OperationExample = {
  response: { ok: true, webhooks: [webhookExample] }
}

export const removeExample: OperationExample = {
  response: { ok: true, deleted: true, webhook_id: webhookExample.id }
}

export const rotateSecretExample: OperationExample = {
  response: {
    ok: true,
    webhook: { ...webhookExample, previous_secret_expires_at: "2026-11-24T09:00:00+01:00" },
    secret: "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD+nN4IPnmcE8=",
    previous_secret_expires_at: "2026-11-24T09:00:00+01:00"
  }
}

export const testExample: OperationExample = {
  response: {
    ok: true,
    delivery: {
      id: "msg_2b7c0e4f9a1d4c6e8f0a1b2c3d4e5f60",
      event_type: "webhook.test",
      status: "pending",
      attempts: 0,
      next_attempt_at: "2026-11-23T09:00:00+01:00",
      created_at: "2026-11-23T09:00:00+01:00"
    }
  }
}

export const deliveriesExample: OperationExample = {
  response: { ok: true, deliveries: [webhookDeliveryExample], next_cursor: null }
}

export const retryExample: OperationExample = {
  response: {
    ok: true,
    delivery: {
      ...webhookDeliveryExample,
      status: "pending",
      attempts: 0,
      next_attempt_at: "2026-11-23T10:00:00+01:00"
    }
  }
}
