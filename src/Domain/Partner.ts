import { Context } from "effect"

/** The authenticated caller of a request; idempotency keys and bookings are scoped to it. */
export class Partner extends Context.Tag("Booking/Partner")<
  Partner,
  { readonly id: string; readonly name: string }
>() {}
