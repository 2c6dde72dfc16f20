/**
 * The yardstick the benchmarks compare the project with: `node:http` + `pg`, no framework, running
 * the same SQL as the project for the same request bodies, every statement prepared (named).
 * It checks nothing the database does not check; it is the cost of the SQL plus parsing JSON.
 *
 *   node --import tsx scripts/bare-baseline.ts   (DATABASE_URL, PORT, POOL_SIZE, SIGNING_SECRET)
 *
 * POST /api/public/booking-options   the availability statement of Calendar.availability
 * POST /api/public/bookings          idempotency look-up; BEGIN; claim; current offer; calendar +
 *                                    booking + outbox in one statement; COMMIT; delivery states
 *                                    (the confirm SQL the performance issue named: seven round trips)
 *
 * BARE_CONFIRM_SQL=service runs the service's own confirm SQL instead: the current offer, then one
 * statement whose CTEs claim the key and insert calendar booking, booking and outbox (two round
 * trips; a used key fails the claim and is answered as a replay).
 */

import { createHmac, randomBytes, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import pg from "pg"

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) })
const secret = process.env.SIGNING_SECRET ?? ""

const hoursOfP = `coalesce((
  SELECT json_agg(json_build_object('isoWeekday', h.iso_weekday,
    'opens', to_char(h.opens, 'HH24:MI'), 'closes', to_char(h.closes, 'HH24:MI')))
  FROM provider_working_hours h WHERE h.provider_id = p.id), '[]')`

const availability = {
  name: "bare_availability",
  text: `
    SELECT p.id AS provider_id, p.name AS provider_name, p.city, p.rating_label,
      s.service_id, s.label_sv, s.label_en, s.pricing_model, s.price_type, s.amount_sek, s.unit_price_sek,
      s.unit, s.duration_minutes, s.scope, s.terms_version, s.terms_url, s.terms_sections, s.terms_source_urls,
      ${hoursOfP} AS hours,
      coalesce((
        SELECT json_agg(json_build_array(
          (extract(epoch FROM lower(b.during)) * 1000)::bigint, (extract(epoch FROM upper(b.during)) * 1000)::bigint))
        FROM calendar_bookings b
        WHERE b.provider_id = p.id AND NOT b.sandbox AND b.during && tstzrange($3, $4)
      ), '[]') AS busy
    FROM provider_services s
    JOIN providers p ON p.id = s.provider_id
    WHERE s.active AND p.active AND s.vertical_id = $1 AND s.job_type_id = $2
      AND EXISTS (SELECT 1 FROM provider_areas a WHERE a.provider_id = p.id AND a.postcodes @> $5::int)
      AND ($6::int IS NULL OR EXISTS (
        SELECT 1 FROM provider_areas a WHERE a.provider_id = p.id AND a.postcodes @> $6::int))
    ORDER BY p.id, s.service_id`
}

const findKey = {
  name: "bare_find_key",
  text: "SELECT request_hash, resource_id FROM idempotency_keys WHERE partner_id = $1 AND scope = $2 AND key = $3"
}
const claimKey = {
  name: "bare_claim_key",
  text: `INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
    VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1 AS claimed`
}
const current = {
  name: "bare_current",
  text: `
    SELECT p.active AS provider_active, p.name AS provider_name, p.notify_email, p.notify_webhook_url,
      s.active AS service_active, s.label_sv, s.label_en, s.pricing_model, s.price_type, s.amount_sek,
      s.unit_price_sek, s.unit, s.duration_minutes, s.scope, s.terms_version, s.terms_url,
      EXISTS (SELECT 1 FROM provider_areas a WHERE a.provider_id = p.id AND a.postcodes @> $3::int) AS serves_postcode,
      ($4::int IS NULL OR EXISTS (
        SELECT 1 FROM provider_areas a WHERE a.provider_id = p.id AND a.postcodes @> $4::int)) AS serves_destination,
      ${hoursOfP} AS hours
    FROM providers p
    LEFT JOIN provider_services s ON s.provider_id = p.id AND s.service_id = $2
    WHERE p.id = $1`
}
const book = {
  name: "bare_book",
  text: `
    WITH cal AS (
      INSERT INTO calendar_bookings (id, provider_id, service_id, during, sandbox)
      VALUES ($1::uuid, $2, $3, tstzrange($4, $5, '[)'), false)
      RETURNING id
    ), confirmed AS (
      INSERT INTO bookings (id, request_id, partner_id, provider_id, provider_name, service_id, vertical_id,
        job_type_id, service_label_sv, slot_start, slot_end, slot_label, time_zone, price_sek, pricing_model,
        price_type, unit_price_sek, unit, quantity, terms_version, terms_url, scope, customer, service_location,
        destination_location, consent, source, external_reference, confirmed_at, sandbox)
      SELECT cal.id, $6, $7, $2, $8, $3, $9, $10, $11, $4, $5, $12, 'Europe/Stockholm', $13, $14, $15, NULL, NULL,
        NULL, $16, $17, $18::jsonb, $19::jsonb, $20::jsonb, NULL, $21::jsonb, 'bench', NULL, $22, false
      FROM cal
      RETURNING confirmed_at
    ), outbox AS (
      INSERT INTO notification_outbox (id, topic, subject_id, recipient_role, provider_id, channel, address,
        subject, body, payload, status, give_up_at)
      SELECT x.id, 'booking_confirmed', cal.id, x.recipient_role, x.provider_id, x.channel, x.address,
        x.subject, x.body, x.payload, x.status, x.give_up_at
      FROM cal, jsonb_to_recordset($23::jsonb) AS x(id uuid, recipient_role text,
        provider_id text, channel text, address text, subject text, body text, payload jsonb, status text,
        give_up_at timestamptz)
    )
    SELECT confirmed_at FROM confirmed`
}
/** `book` with the claim of the key as its first CTE, committing on its own (BARE_CONFIRM_SQL=service). */
const claimAndBook = {
  name: "bare_claim_and_book",
  text: book.text
    .replace(
      "WITH cal AS (",
      `WITH claimed AS (
      INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
      VALUES ($7, 'booking', $24, $25, $1)
      RETURNING 1 AS claimed
    ), cal AS (`
    )
    .replace(
      "SELECT confirmed_at FROM confirmed",
      "SELECT (SELECT claimed FROM claimed), (SELECT confirmed_at FROM confirmed)"
    )
}
const serviceSql = process.env.BARE_CONFIRM_SQL === "service"

const states = {
  name: "bare_states",
  text: `SELECT id, subject_id, recipient_role, channel, status, attempts, next_attempt_at, last_error, sent_at
    FROM notification_outbox WHERE subject_id = ANY($1::uuid[]) ORDER BY created_at, recipient_role, id`
}

const readBody = (request: IncomingMessage) =>
  new Promise<any>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch (error) {
        reject(error)
      }
    })
    request.on("error", reject)
  })

const send = (response: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

const postcode = (text: string) => Number(text.replace(/\s/g, ""))

const search = async (body: any) => {
  const start = Date.now()
  const { rows } = await pool.query({
    ...availability,
    values: [
      body.vertical_id,
      body.job_type_id,
      new Date(start),
      new Date(start + 14 * 86_400_000),
      postcode(body.location.postcode),
      null
    ]
  })
  return { ok: true, options: rows }
}

/** The service's confirm SQL: the current offer, then the claim and every write in one statement. */
const confirmAsService = async (body: any, option: any, partnerId: string, hash: string) => {
  const bookingId = randomUUID()
  const requestId = `bkg_${randomBytes(15).toString("base64url")}`
  const offer = (
    await pool.query({ ...current, values: [option.providerId, option.serviceId, option.originPostcode, null] })
  ).rows[0]
  const now = new Date()
  try {
    const booked = await pool.query({
      ...claimAndBook,
      values: [...bookValues(body, option, offer, bookingId, requestId, partnerId, now), body.idempotency_key, hash]
    })
    return [201, { ok: true, request_id: requestId, confirmed_at: booked.rows[0]?.confirmed_at }] as const
  } catch (error) {
    if ((error as { code?: string }).code === "23505") return [200, { ok: true, replay: true }] as const
    return [409, { ok: false, error: String(error) }] as const
  }
}

const bookValues = (
  body: any,
  option: any,
  offer: any,
  bookingId: string,
  requestId: string,
  partnerId: string,
  now: Date
) => {
  const giveUpAt = new Date(now.getTime() + 48 * 3_600_000).toISOString()
  const outbox = ["customer", "provider"].map((role) => ({
    id: randomUUID(),
    recipient_role: role,
    provider_id: role === "provider" ? option.providerId : null,
    channel: "none",
    address: null,
    subject: `Bokning ${requestId}`,
    body: `${offer.provider_name} ${option.slotStart}`,
    payload: {},
    status: "skipped",
    give_up_at: giveUpAt
  }))
  return [
    bookingId,
    option.providerId,
    option.serviceId,
    new Date(option.slotStart),
    new Date(option.slotEnd),
    requestId,
    partnerId,
    offer.provider_name,
    option.verticalId,
    option.jobTypeId,
    offer.label_sv,
    String(option.slotStart),
    option.amountSek,
    option.pricingModel,
    option.priceType,
    option.termsVersion,
    offer.terms_url,
    JSON.stringify(offer.scope ?? {}),
    JSON.stringify(body.customer),
    JSON.stringify(body.service_location),
    JSON.stringify({ user_consent_confirmed: true, recorded_at: now.toISOString() }),
    now,
    JSON.stringify(outbox)
  ]
}

const confirm = async (body: any) => {
  const [, kid, payload, tag] = String(body.booking_option_id).split(".")
  const signed = `o1.${kid}.${payload}`
  if (createHmac("sha256", secret).update(signed).digest("base64url") !== tag) return [400, { ok: false }] as const
  const option = JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8"))
  const partnerId = "bench"
  const hash = createHmac("sha256", "h").update(JSON.stringify(body)).digest("hex")
  if (serviceSql) return confirmAsService(body, option, partnerId, hash)
  const existing = await pool.query({ ...findKey, values: [partnerId, "booking", body.idempotency_key] })
  if (existing.rows.length > 0) return [200, { ok: true, replay: true }] as const
  const client = await pool.connect()
  const bookingId = randomUUID()
  const requestId = `bkg_${randomBytes(15).toString("base64url")}`
  let released = false
  try {
    await client.query("BEGIN")
    await client.query({ ...claimKey, values: [partnerId, "booking", body.idempotency_key, hash, bookingId] })
    const offer = (
      await client.query({
        ...current,
        values: [option.providerId, option.serviceId, option.originPostcode, null]
      })
    ).rows[0]
    const booked = await client.query({
      ...book,
      values: bookValues(body, option, offer, bookingId, requestId, partnerId, new Date())
    })
    await client.query("COMMIT")
    client.release()
    released = true
    const delivery = await pool.query({ ...states, values: [[bookingId]] })
    return [
      201,
      { ok: true, request_id: requestId, confirmed_at: booked.rows[0]?.confirmed_at, delivery: delivery.rows }
    ] as const
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {})
    return [409, { ok: false, error: String(error) }] as const
  } finally {
    if (!released) client.release()
  }
}

const server = createServer((request, response) => {
  readBody(request)
    .then(async (body) => {
      if (request.url === "/api/public/booking-options") return send(response, 200, await search(body))
      if (request.url === "/api/public/bookings") {
        const [status, answer] = await confirm(body)
        return send(response, status, answer)
      }
      send(response, 404, { ok: false })
    })
    .catch((error) => send(response, 500, { ok: false, error: String(error) }))
})
server.keepAliveTimeout = 60_000
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address()
  console.log(`bare baseline serving http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`)
})
process.once("SIGTERM", () => {
  server.close()
  server.closeAllConnections()
  pool.end().finally(() => process.exit(0))
})
