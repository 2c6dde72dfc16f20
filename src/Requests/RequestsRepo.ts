import { Context, Effect, Layer, Option, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import { keysetAfter, positionColumn } from "../Database/Keyset.js"
import { rowsOf } from "../Database/Rows.js"
import { isUuid } from "../Domain/Ids.js"
import type { PageQuery } from "../Domain/ListPage.js"
import { type NewRequest, StoredRequest } from "../Domain/RequestRecord.js"
import { consentKept, type ErasedBy, RequestDataRow } from "../Domain/Retention.js"

/** The `service_requests` table: the one place that writes and reads it. */
export class RequestsRepo extends Context.Service<RequestsRepo>()("Booking/RequestsRepo", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

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
      sandbox, status, withdrawn_at, withdraw_reason, withdrawal_id::text AS withdrawal_id`)

    const findById = SqlSchema.findOneOption({
      Request: Schema.Struct({ partnerId: Schema.String, id: Schema.String }),
      Result: StoredRequest,
      execute: ({ partnerId, id }) =>
        sql`SELECT ${columns} FROM service_requests WHERE id = ${id}::uuid AND partner_id = ${partnerId}`
    })

    const findBySessionId = SqlSchema.findOneOption({
      Request: Schema.Struct({ partnerId: Schema.String, sessionId: Schema.String }),
      Result: StoredRequest,
      execute: ({ partnerId, sessionId }) =>
        sql`SELECT ${columns} FROM service_requests WHERE session_id = ${sessionId} AND partner_id = ${partnerId}`
    })

    /** A UUID is a `request.id`, anything else may be a `session_id`: never a uuid cast of arbitrary text. */
    const find = (partnerId: string, id: string) =>
      isUuid(id) ? findById({ partnerId, id }) : findBySessionId({ partnerId, sessionId: id })

    const ListedRequest = Schema.Struct({ ...StoredRequest.fields, positionAt: Schema.String })

    /** A page of the partner's requests, last changed first: one more row than asked, to tell a next page exists. */
    const listPage = (partnerId: string, page: PageQuery) =>
      sql`
        SELECT ${columns}, ${positionColumn(sql, "updated_at")} FROM service_requests
        WHERE partner_id = ${partnerId}
          ${page.filters.status === undefined ? sql`` : sql`AND status = ${page.filters.status}`}
          ${page.filters.updatedSince === undefined ? sql`` : sql`AND updated_at >= ${page.filters.updatedSince}::timestamptz`}
          ${keysetAfter(sql, "updated_at", { column: "id", type: "uuid" }, page.after)}
        ORDER BY updated_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
        rowsOf(ListedRequest),
        Effect.withSpan("RequestsRepo.listPage")
      )

    /** The request, locked until the transaction ends: a withdrawal reads it so, and a racing one waits. */
    const lockById = (id: string) =>
      sql`SELECT ${columns} FROM service_requests WHERE id = ${id}::uuid FOR UPDATE`.pipe(
        rowsOf(StoredRequest),
        Effect.map((rows) => Option.fromNullishOr(rows[0]))
      )

    /** The request's partner and kind, its row locked until the transaction ends. */
    const lockOwner = (id: string) =>
      sql`SELECT partner_id, sandbox FROM service_requests WHERE id = ${id} FOR UPDATE`.pipe(
        rowsOf(Schema.Struct({ partnerId: Schema.String, sandbox: Schema.Boolean })),
        Effect.map((rows) => rows[0])
      )

    /** Marks a locked request withdrawn; its change time never goes back. */
    const withdraw = (id: string, withdrawal: { readonly id: string; readonly reason: string | null }, now: Date) =>
      sql`UPDATE service_requests SET status = 'withdrawn', withdrawn_at = ${now}, withdraw_reason = ${withdrawal.reason},
        withdrawal_id = ${withdrawal.id}::uuid, updated_at = greatest(updated_at, ${now})
      WHERE id = ${id}::uuid`

    // Personal data: what a request keeps about its customer, and its erasure.

    const requestColumns = sql.literal(`id::text AS id, session_id, vertical_id, job_type_id, status, updated_at,
      sandbox, body->'customer' AS customer, body->'location' AS location, body->>'description' AS description,
      CASE WHEN body ? 'details' THEN (body->'details')::text END AS details,
      consent->>'statement' AS consent_statement, withdraw_reason, personal_data_erased_at AS erased_at,
      personal_data_erased_by AS erased_by, personal_data_erasure_id::text AS erasure_id`)

    /** The partner's request's personal data by its id or `session_id`; none for another partner's. */
    const personalData = (partnerId: string, ref: string) =>
      sql`SELECT ${requestColumns} FROM service_requests
        WHERE partner_id = ${partnerId} AND ${isUuid(ref) ? sql`id = ${ref}::uuid` : sql`session_id = ${ref}`}`.pipe(
        rowsOf(RequestDataRow),
        Effect.map((rows) => rows[0])
      )

    const lockPersonalData = (id: string) =>
      sql`SELECT ${requestColumns} FROM service_requests WHERE id = ${id}::uuid FOR UPDATE`.pipe(
        rowsOf(RequestDataRow),
        Effect.map((rows) => rows[0])
      )

    /** Erases these requests' personal data; answers each erased request with its withdrawal's id (its messages' subjects). */
    const erasePersonalData = (ids: ReadonlyArray<string>, by: ErasedBy, now: Date, erasureId: string | null) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql`
        UPDATE service_requests SET
          body = jsonb_strip_nulls(jsonb_build_object('vertical_id', body->'vertical_id',
            'job_type_id', body->'job_type_id',
            'location', CASE WHEN body->'location' ? 'postcode'
              THEN jsonb_build_object('postcode', body->'location'->'postcode') END)),
          consent = ${sql.literal(consentKept)},
          withdraw_reason = NULL,
          personal_data_erased_at = ${now}, personal_data_erased_by = ${by},
          personal_data_erasure_id = ${erasureId}::uuid
        WHERE id IN ${sql.in(ids)} AND personal_data_erased_at IS NULL
        RETURNING id::text AS id, withdrawal_id::text AS withdrawal_id`.pipe(
            rowsOf(Schema.Struct({ id: Schema.String, withdrawalId: Schema.NullOr(Schema.String) }))
          )

    /** The requests due for erasure at `cutoff` (last changed before it), locked, `limit` at a time. */
    const dueForErasure = (cutoff: Date, limit: number) =>
      sql`SELECT id::text AS id FROM service_requests
        WHERE personal_data_erased_at IS NULL AND updated_at <= ${cutoff}
        ORDER BY updated_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`.pipe(rowsOf(Schema.Struct({ id: Schema.String })))

    return {
      personalData,
      lockPersonalData,
      erasePersonalData,
      dueForErasure,
      insertion,
      listPage,
      lockById,
      lockOwner,
      withdraw,
      find,
      findById: (partnerId: string, id: string) =>
        findById({ partnerId, id }).pipe(Effect.withSpan("RequestsRepo.findById"))
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
