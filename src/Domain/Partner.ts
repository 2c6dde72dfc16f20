import { Context } from "effect"

/**
 * The authenticated caller of a request; idempotency keys and bookings are scoped to it. A
 * sandbox partner's bookings and requests are marked and never reach a provider or a customer.
 */
export class Partner extends Context.Service<
  Partner,
  { readonly id: string; readonly name: string; readonly sandbox: boolean }
>()("Booking/Partner") {}

/** The partner a request without a token passes as in open development mode (AUTH_MODE=open). */
export const anonymousPartnerId = "anonymous"
