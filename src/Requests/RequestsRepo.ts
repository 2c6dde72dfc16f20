import { Context, Effect, Layer, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import { DirectQuery } from "../Database/Database.js"
import { isUuid } from "../Domain/Ids.js"
import { type NewRequest, StoredRequest } from "../Domain/RequestRecord.js"

/** The `service_requests` table: the one place that writes and reads it. */
export class RequestsRepo extends Context.Service<RequestsRepo>()("Booking/RequestsRepo", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Reads run on the pool within the request's database budget.
    const direct = yield* DirectQuery

    /**
     * The statement that records a request, run with the outbox rows that hand it off. Its values
     * are built in code and typed, so they are not decoded again.
     */
    const insertion = (request: NewRequest) => sql`
        INSERT INTO service_requests (id, session_id, partner_id, vertical_id, job_type_id, taxonomy_confidence,
          customer_next_step, booking_mode, body, consent, candidates, handoff, created_at, sandbox, updated_at)
        VALUES (${request.id}::uuid, ${request.sessionId}, ${request.partnerId}, ${request.verticalId},
          ${request.jobTypeId}, ${request.taxonomyConfidence}, ${request.customerNextStep}, ${request.bookingMode},
          ${JSON.stringify(request.body)}::jsonb, ${JSON.stringify(request.consent)}::jsonb,
          ${JSON.stringify(request.candidates)}::jsonb, ${request.handoff}, ${request.createdAt}, ${request.sandbox}, ${request.createdAt})`

    const columns = sql.literal(`id, session_id, vertical_id, job_type_id, taxonomy_confidence, customer_next_step,
      booking_mode, candidates, handoff, (handoff <> 'no_candidates' OR body->'location' ? 'postcode') AS has_postcode,
      sandbox`)

    const findById = SqlSchema.findOneOption({
      Request: Schema.Struct({ partnerId: Schema.String, id: Schema.String }),
      Result: StoredRequest,
      execute: ({ partnerId, id }) =>
        direct(sql`SELECT ${columns} FROM service_requests WHERE id = ${id}::uuid AND partner_id = ${partnerId}`)
    })

    const findBySessionId = SqlSchema.findOneOption({
      Request: Schema.Struct({ partnerId: Schema.String, sessionId: Schema.String }),
      Result: StoredRequest,
      execute: ({ partnerId, sessionId }) =>
        direct(
          sql`SELECT ${columns} FROM service_requests WHERE session_id = ${sessionId} AND partner_id = ${partnerId}`
        )
    })

    /** A UUID is a `request.id`, anything else may be a `session_id`: never a uuid cast of arbitrary text. */
    const find = (partnerId: string, id: string) =>
      isUuid(id) ? findById({ partnerId, id }) : findBySessionId({ partnerId, sessionId: id })

    return {
      insertion,
      find,
      findById: (partnerId: string, id: string) =>
        findById({ partnerId, id }).pipe(Effect.withSpan("RequestsRepo.findById"))
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
