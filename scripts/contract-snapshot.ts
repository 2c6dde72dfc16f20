/**
 * The contract as a partner sees it, recorded from a real server process: status, the headers
 * that matter and the body of every endpoint's answers (success, replay, each error), the
 * documents (/openapi.json, /docs, capabilities), /metrics' series and MCP's tools/list and a
 * tool call. Only what changes from run to run or day to day is normalised (option ids,
 * references, uuids, times, dates and day names).
 *
 * Answers are compared by meaning: a JSON body as data (values, types, presence; an object's key
 * order ignored, as a JSON client ignores it), the headers that carry meaning (a byte-dependent
 * one such as content-length or etag only for its presence), other bodies as normalised text.
 *
 *   npx tsx scripts/contract-snapshot.ts --record   writes test/contract/golden.json
 *   npx tsx scripts/contract-snapshot.ts            compares a fresh run with it, exit 1 on any difference
 *
 * It drives the server only through HTTP, so the same script holds the contract across a change
 * of the server's framework. The server runs as `npm start` does, on a fresh embedded cluster.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import requestBody from "../test/contract/request-body.json" with { type: "json" }
import { withDevServer } from "./devServer.js"

const root = join(import.meta.dirname, "..")
const goldenFile = join(root, "test", "contract", "golden.json")
const token = "contract-snapshot-token-0123456789"
const sandboxToken = "contract-snapshot-sandbox-0123456789"

/** Headers whose value is part of the contract; others (date, keep-alive) are Node's. */
const keptHeaders = [
  "content-type",
  "allow",
  "www-authenticate",
  "retry-after",
  "etag",
  "cache-control",
  "vary",
  "content-encoding",
  "content-security-policy",
  "x-content-type-options",
  "location",
  "mcp-session-id",
  "x-request-id",
  "idempotent-replayed",
  "idempotency-replayed"
]

interface Answer {
  readonly name: string
  readonly request: string
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

const weekdays =
  "måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
const months =
  "januari|februari|mars|april|maj|juni|juli|augusti|september|oktober|november|december|" +
  "january|february|march|may|june|july|august|october"

/**
 * What changes from run to run or day to day is replaced by a placeholder: the server runs on the
 * real clock, so every date it names (in both languages) depends on the day the comparison runs.
 */
const normalise = (text: string, documentLike: boolean) => {
  let out = text
    .replace(/o1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, "<option-id>")
    .replace(/\bo2[A-Za-z0-9_-]{44}(?![A-Za-z0-9_-])/g, "<short-option-id>")
    .replace(/\b(bkg|req)_[A-Za-z0-9_-]{20}(?![A-Za-z0-9_-])/g, "<$1-ref>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
  if (!documentLike) {
    out = out
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?/g, "<time>")
      .replace(/\d{4}-\d{2}-\d{2}/g, "<date>")
      .replace(new RegExp(`\\b(${weekdays})( den)? \\d{1,2} (${months})\\b`, "gi"), "<day>")
      .replace(new RegExp(`\\b\\d{1,2} (${months})\\b`, "gi"), "<day>")
      .replace(/\b\d{1,2}[:.]\d{2}\b/g, "<hh:mm>")
  }
  return out
}

const run = (): Promise<Array<Answer>> =>
  withDevServer(
    {
      AUTH_MODE: "tokens",
      SERVICE_REQUESTS_API_TOKENS: token,
      SANDBOX_API_TOKENS: sandboxToken,
      BOOKING_OPTION_SIGNING_KEYS: "snap-1:contract-snapshot-secret-0123456789abcdef",
      METRICS_TOKEN: "contract-metrics-token",
      RATE_LIMIT_SEARCH_PER_MINUTE: "100000",
      RATE_LIMIT_CONFIRM_PER_MINUTE: "100000",
      RATE_LIMIT_REQUESTS_PER_MINUTE: "100000"
    },
    exercise
  )

const exercise = async (base: string): Promise<Array<Answer>> => {
  const answers: Array<Answer> = []
  const call = async (
    name: string,
    method: string,
    path: string,
    options: { body?: string | undefined; headers?: Record<string, string>; documentLike?: boolean } = {}
  ) => {
    const response = await fetch(base + path, {
      method,
      headers: options.headers ?? {},
      ...(options.body === undefined ? {} : { body: options.body })
    })
    const raw = await response.text()
    const headers: Record<string, string> = {}
    for (const header of keptHeaders) {
      const value = response.headers.get(header)
      if (value !== null) headers[header] = header === "x-request-id" || header === "mcp-session-id" ? "<id>" : value
    }
    if (options.documentLike) headers["content-length"] = response.headers.get("content-length") ?? "<none>"
    const answer: Answer = {
      name,
      request: `${method} ${path}`,
      status: response.status,
      headers,
      body: normalise(raw, options.documentLike ?? false)
    }
    answers.push(answer)
    return { ...answer, raw, responseHeaders: response.headers }
  }
  const json = { "content-type": "application/json" }
  const auth = { ...json, authorization: `Bearer ${token}` }
  const send = (value: unknown) => JSON.stringify(value)

  const searchBody = {
    vertical_id: "vvs",
    job_type_id: "install_faucet",
    description: "Byta köksblandaren, den nya finns på plats",
    location: { country_code: "SE", postcode: "111 22" },
    timing: { preferred_time_text: "nästa vecka förmiddag" }
  }
  const customer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid.lindqvist@example.se" }
  const confirmBody = (bookingOptionId: string, termsVersion: string, idempotencyKey: string) => ({
    booking_option_id: bookingOptionId,
    customer,
    service_location: { country_code: "SE", address: "Drottninggatan 12, 3 tr", postcode: "111 22" },
    user_consent_confirmed: true,
    user_consent_statement: "Jag godkänner att mina uppgifter skickas till hantverkaren.",
    consent_collected_at: "2026-11-23T08:58:00+01:00",
    consent_source: "chat",
    booking_terms_accepted: true,
    booking_terms_version: termsVersion,
    booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
    idempotency_key: idempotencyKey
  })

  // Documents
  const capabilities = await call("capabilities", "GET", "/api/public/requests/capabilities", { documentLike: true })
  const etag = capabilities.responseHeaders.get("etag")
  await call("capabilities not modified", "GET", "/api/public/requests/capabilities", {
    headers: { "if-none-match": etag ?? "" },
    documentLike: true
  })
  await call("capabilities brotli", "GET", "/api/public/requests/capabilities", {
    headers: { "accept-encoding": "br" },
    documentLike: true
  })
  await call("openapi", "GET", "/openapi.json", { documentLike: true })
  await call("docs", "GET", "/docs", { documentLike: true })
  await call("healthz", "GET", "/healthz")
  await call("readyz", "GET", "/readyz")

  // Routing and the body's edges
  await call("unknown path", "GET", "/nope")
  await call("wrong method", "GET", "/api/public/booking-options")
  await call("bad percent-encoding", "GET", "/api/public/bookings/%ZZ", { headers: auth })
  await call("search: malformed json", "POST", "/api/public/booking-options", { headers: json, body: "{" })
  await call("search: empty body", "POST", "/api/public/booking-options", { headers: json, body: "" })
  await call("search: text/plain", "POST", "/api/public/booking-options", {
    headers: { "content-type": "text/plain" },
    body: send(searchBody)
  })
  await call("search: too large", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, description: "x".repeat(1_100_000) })
  })
  await call("search: too deep", "POST", "/api/public/booking-options", {
    headers: json,
    body: "[".repeat(40) + "]".repeat(40)
  })
  await call("search: missing fields", "POST", "/api/public/booking-options", { headers: json, body: send({}) })
  await call("search: unknown property", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, extra: 1 })
  })
  await call("search: bad postcode and blank", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, description: "   ", location: { country_code: "SE", postcode: "abc" } })
  })
  await call("search: NUL", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, description: "a\u0000b" })
  })
  await call("search: bad timezone", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, timezone: "+01:00" })
  })
  await call("search: unsupported vertical", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, vertical_id: "roofing" })
  })
  await call("search: unsupported job type", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, job_type_id: "fly_to_moon" })
  })
  await call("search: no options (request only)", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, job_type_id: "leak_hidden" })
  })

  // Search and confirm
  const search = await call("search", "POST", "/api/public/booking-options", { headers: json, body: send(searchBody) })
  const options = (
    JSON.parse(search.raw) as { options: Array<{ booking_option_id: string; terms: { version: string } }> }
  ).options
  const [first, second] = options
  if (!first || !second) throw new Error(`the search gave fewer than two options: ${search.raw}`)
  const confirmPath = "/api/public/bookings"
  await call("confirm: no token", "POST", confirmPath, {
    headers: json,
    body: send(confirmBody(first.booking_option_id, first.terms.version, "snap-k0"))
  })
  await call("confirm: wrong token", "POST", confirmPath, {
    headers: { ...json, authorization: "Bearer nope" },
    body: send(confirmBody(first.booking_option_id, first.terms.version, "snap-k0"))
  })
  await call("confirm: basic auth", "POST", confirmPath, {
    headers: { ...json, authorization: "Basic abc" },
    body: send(confirmBody(first.booking_option_id, first.terms.version, "snap-k0"))
  })
  await call("confirm: invalid payload", "POST", confirmPath, {
    headers: auth,
    body: send({
      ...confirmBody(first.booking_option_id, first.terms.version, "snap-k0"),
      user_consent_confirmed: false
    })
  })
  await call("confirm: missing fields", "POST", confirmPath, { headers: auth, body: send({ customer: {} }) })
  await call("confirm: tampered option", "POST", confirmPath, {
    headers: auth,
    body: send(confirmBody(`${first.booking_option_id}x`, first.terms.version, "snap-k0"))
  })
  await call("confirm: wrong terms version", "POST", confirmPath, {
    headers: auth,
    body: send(confirmBody(first.booking_option_id, "terms-0", "snap-k0"))
  })
  const created = await call("confirm: 201", "POST", confirmPath, {
    headers: auth,
    body: send(confirmBody(first.booking_option_id, first.terms.version, "snap-k1"))
  })
  await call("confirm: replay", "POST", confirmPath, {
    headers: auth,
    body: send(confirmBody(first.booking_option_id, first.terms.version, "snap-k1"))
  })
  await call("confirm: key reused", "POST", confirmPath, {
    headers: auth,
    body: send(confirmBody(second.booking_option_id, second.terms.version, "snap-k1"))
  })
  await call("confirm: slot taken", "POST", confirmPath, {
    headers: auth,
    body: send(confirmBody(first.booking_option_id, first.terms.version, "snap-k2"))
  })
  await call("confirm: sandbox", "POST", confirmPath, {
    headers: { ...json, authorization: `Bearer ${sandboxToken}` },
    body: send(confirmBody(second.booking_option_id, second.terms.version, "snap-k3"))
  })
  await call("confirm: slot taken by someone else", "POST", confirmPath, {
    headers: auth,
    body: send({
      ...confirmBody(first.booking_option_id, first.terms.version, "snap-k4"),
      customer: { name: "Bertil Holm", phone: "+46 70 555 12 12", email: "bertil.holm@example.se" }
    })
  })
  await call("confirm: retry with new stamps", "POST", confirmPath, {
    headers: auth,
    body: send({
      ...confirmBody(first.booking_option_id, first.terms.version, "snap-k1"),
      booking_terms_accepted_at: new Date().toISOString()
    })
  })
  await call("search: sandbox token", "POST", "/api/public/booking-options", {
    headers: { ...json, authorization: `Bearer ${sandboxToken}` },
    body: send(searchBody)
  })
  await call("search: wrong token", "POST", "/api/public/booking-options", {
    headers: { ...json, authorization: "Bearer not-a-token-at-all" },
    body: send(searchBody)
  })
  await call("search: vertical in other words", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, vertical_id: "plumbing" })
  })
  const booking = JSON.parse(created.raw) as { request_id: string; booking?: { id: string } }

  // Status
  await call("status", "GET", `/api/public/bookings/${booking.request_id}`, { headers: auth })
  if (booking.booking?.id)
    await call("status by booking id", "GET", `/api/public/bookings/${booking.booking.id}`, { headers: auth })
  await call("status: unknown", "GET", "/api/public/bookings/bkg_AAAAAAAAAAAAAAAAAAAA", { headers: auth })
  await call("status: no token", "GET", `/api/public/bookings/${booking.request_id}`)
  await call("status: sandbox partner", "GET", `/api/public/bookings/${booking.request_id}`, {
    headers: { authorization: `Bearer ${sandboxToken}` }
  })
  await call("status: wrong method", "DELETE", `/api/public/bookings/${booking.request_id}`, { headers: auth })

  // Follow-up requests
  const requests = "/api/public/requests"
  const createdRequest = await call("requests: 201", "POST", requests, {
    headers: { ...auth, "idempotency-key": "snap-r1" },
    body: send(requestBody)
  })
  await call("requests: replay", "POST", requests, {
    headers: { ...auth, "idempotency-key": "snap-r1" },
    body: send(requestBody)
  })
  await call("requests: key reused", "POST", requests, {
    headers: { ...auth, "idempotency-key": "snap-r1" },
    body: send({ ...requestBody, budget_sek: 6000 })
  })
  const requestId = (JSON.parse(createdRequest.raw) as { request?: { id?: string } }).request?.id
  await call("request status", "GET", `${requests}/${requestId}`, { headers: auth })
  await call("request status: unknown", "GET", `${requests}/req_AAAAAAAAAAAAAAAAAAAA`, { headers: auth })
  await call("requests: without key", "POST", requests, { headers: auth, body: send(requestBody) })
  await call("requests: search location", "POST", requests, {
    headers: { ...auth, "idempotency-key": "snap-r2" },
    body: send({ ...requestBody, location: { country_code: "SE", postcode: "111 22" } })
  })
  await call("requests: no token", "POST", requests, { headers: json, body: send(requestBody) })
  await call("requests: no location", "POST", requests, {
    headers: { ...auth, "idempotency-key": "snap-r3" },
    body: send({ ...requestBody, location: {} })
  })

  // What the service adds beyond the contract (docs/extensions.md)
  await call("errors catalogue", "GET", "/api/public/errors", { documentLike: true })
  await call("search: empty window, alternatives", "POST", "/api/public/booking-options", {
    headers: json,
    body: send({ ...searchBody, timing: { preferred_time_text: "på söndag" } })
  })
  if (booking.booking?.id) {
    await call("cancel: dry run", "POST", `/api/public/bookings/${booking.booking.id}/cancel`, {
      headers: auth,
      body: send({ dry_run: true, idempotency_key: "snap-c0" })
    })
  }
  await call("bookings list", "GET", "/api/public/bookings?limit=2", { headers: auth })
  await call("bookings list: tampered cursor", "GET", "/api/public/bookings?cursor=c1.x.y.z", { headers: auth })
  await call("requests list", "GET", "/api/public/requests?limit=2", { headers: auth })
  await call("request withdraw", "POST", `${requests}/${requestId}/withdraw`, {
    headers: auth,
    body: send({ idempotency_key: "snap-w1", reason: "Fixed it myself" })
  })
  await call("request withdraw: replay", "POST", `${requests}/${requestId}/withdraw`, {
    headers: auth,
    body: send({ idempotency_key: "snap-w1", reason: "Fixed it myself" })
  })
  await call("request withdraw: again", "POST", `${requests}/${requestId}/withdraw`, {
    headers: auth,
    body: send({ idempotency_key: "snap-w2" })
  })

  // MCP
  const mcpHeaders = { ...auth, accept: "application/json, text/event-stream" }
  const rpc = (id: number | string | undefined, method: string, params: unknown) =>
    send({ jsonrpc: "2.0", ...(id === undefined ? {} : { id }), method, ...(params === undefined ? {} : { params }) })
  const init = await call("mcp: initialize", "POST", "/mcp", {
    headers: mcpHeaders,
    body: rpc(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "contract-snapshot", version: "1.0.0" }
    })
  })
  const session = init.responseHeaders.get("mcp-session-id") ?? ""
  const inSession = { ...mcpHeaders, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" }
  await call("mcp: initialized", "POST", "/mcp", {
    headers: inSession,
    body: rpc(undefined, "notifications/initialized", undefined)
  })
  await call("mcp: tools/list", "POST", "/mcp", { headers: inSession, body: rpc(2, "tools/list", {}) })
  await call("mcp: search", "POST", "/mcp", {
    headers: inSession,
    body: rpc(3, "tools/call", { name: "search_booking_options", arguments: searchBody })
  })
  await call("mcp: capabilities", "POST", "/mcp", {
    headers: inSession,
    body: rpc(4, "tools/call", { name: "get_capabilities", arguments: {} })
  })
  await call("mcp: invalid arguments", "POST", "/mcp", {
    headers: inSession,
    body: rpc(5, "tools/call", { name: "search_booking_options", arguments: { vertical_id: "vvs" } })
  })
  await call("mcp: status unknown", "POST", "/mcp", {
    headers: inSession,
    body: rpc(6, "tools/call", { name: "get_booking_status", arguments: { booking_id: "bkg_AAAAAAAAAAAAAAAAAAAA" } })
  })
  const third = options[2]
  if (third) {
    await call("mcp: confirm", "POST", "/mcp", {
      headers: inSession,
      body: rpc(13, "tools/call", {
        name: "confirm_booking",
        arguments: confirmBody(third.booking_option_id, third.terms.version, "snap-mcp-1")
      })
    })
  }
  await call("mcp: string id", "POST", "/mcp", { headers: inSession, body: rpc("abc", "tools/list", {}) })
  await call("mcp: resources/list", "POST", "/mcp", { headers: inSession, body: rpc(7, "resources/list", {}) })
  await call("mcp: prompts/list", "POST", "/mcp", { headers: inSession, body: rpc(8, "prompts/list", {}) })
  await call("mcp: no session", "POST", "/mcp", { headers: mcpHeaders, body: rpc(9, "tools/list", {}) })
  await call("mcp: unknown session", "POST", "/mcp", {
    headers: { ...mcpHeaders, "mcp-session-id": "nope" },
    body: rpc(10, "tools/list", {})
  })
  await call("mcp: wrong token", "POST", "/mcp", {
    headers: { ...mcpHeaders, authorization: "Bearer nope" },
    body: rpc(11, "tools/list", {})
  })
  await call("mcp: GET", "GET", "/mcp", { headers: inSession })
  await call("mcp: foreign origin", "POST", "/mcp", {
    headers: { ...inSession, origin: "https://evil.example" },
    body: rpc(12, "tools/list", {})
  })
  await call("mcp: DELETE", "DELETE", "/mcp", { headers: inSession })

  // Metrics: the series and their labels, not their values
  const metrics = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer contract-metrics-token" } })
  const text = await metrics.text()
  const series = [
    ...new Set(
      text
        .split("\n")
        .filter((line) => line.length > 0)
        .map((line) =>
          line.startsWith("#")
            ? line
            : line
                .replace(/\s+\S+$/, "")
                .replace(/(route|le)="[^"]*"/g, (match) => match)
                .replace(/[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/, "")
        )
    )
  ].sort()
  answers.push({
    name: "metrics series",
    request: "GET /metrics",
    status: metrics.status,
    headers: { "content-type": metrics.headers.get("content-type") ?? "" },
    body: series.join("\n")
  })
  return answers
}

/**
 * Answers changed on purpose, each with the check the new answer must pass instead of the
 * recording: JSON-RPC string ids are answered as the protocol allows.
 */
const intendedChanges: Record<string, { readonly why: string; readonly holds: (answer: Answer) => boolean }> = {
  "mcp: string id": {
    why: "JSON-RPC string ids are answered",
    holds: (answer) => {
      const body = parsed(answer.body) as { id?: unknown; result?: { tools?: unknown } } | undefined
      return answer.status === 200 && body?.id === "abc" && Array.isArray(body.result?.tools)
    }
  }
}

/** A body as data when it is JSON (placeholders sit inside strings, so a normalised body still parses). */
const parsed = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

const jsonIn = (text: string): unknown => (/^\s*[[{]/.test(text) ? parsed(text) : undefined)

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 160 ? `${text.slice(0, 160)}…` : text
}

/**
 * Where two JSON values differ in meaning: values, types and which keys are present; the order of an
 * object's keys is not part of the contract, the order of an array's items is. Strings are compared
 * after normalising, so a recording made on another day gives the same verdict.
 */
const differencesIn = (expected: unknown, actual: unknown, at: string, into: Array<string>) => {
  if (typeof expected === "string" && typeof actual === "string") {
    // A tool result's text block is JSON in a string: compared as data too.
    const [was, now] = [jsonIn(expected), jsonIn(actual)]
    if (was !== undefined && now !== undefined) return differencesIn(was, now, `${at}(json)`, into)
    if (normalise(expected, false) !== normalise(actual, false))
      into.push(`${at}: ${shown(expected)} -> ${shown(actual)}`)
    return
  }
  const kind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value)
  if (kind(expected) !== kind(actual)) {
    into.push(`${at}: ${kind(expected)} ${shown(expected)} -> ${kind(actual)} ${shown(actual)}`)
    return
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) into.push(`${at}: ${expected.length} items -> ${actual.length}`)
    for (let index = 0; index < Math.min(expected.length, actual.length); index++)
      differencesIn(expected[index], actual[index], `${at}[${index}]`, into)
    return
  }
  if (kind(expected) === "object") {
    const was = expected as Record<string, unknown>
    const now = actual as Record<string, unknown>
    for (const key of Object.keys(was))
      if (!(key in now)) into.push(`${at}.${key}: removed (was ${shown(was[key])})`)
      else differencesIn(was[key], now[key], `${at}.${key}`, into)
    for (const key of Object.keys(now)) if (!(key in was)) into.push(`${at}.${key}: added ${shown(now[key])}`)
    return
  }
  if (expected !== actual) into.push(`${at}: ${shown(expected)} -> ${shown(actual)}`)
}

/** Headers whose value depends on the body's bytes rather than its meaning. */
const byteHeaders = new Set(["content-length", "etag"])

const compare = (golden: Array<Answer>, fresh: Array<Answer>) => {
  const differences: Array<string> = []
  const byName = new Map(fresh.map((answer) => [answer.name, answer]))
  for (const expected of golden) {
    const actual = byName.get(expected.name)
    if (!actual) {
      differences.push(`${expected.name}: missing`)
      continue
    }
    const intended = intendedChanges[expected.name]
    if (intended !== undefined) {
      if (!intended.holds(actual)) differences.push(`${expected.name}: ${intended.why}: not so (${actual.status})`)
      continue
    }
    if (actual.status !== expected.status)
      differences.push(`${expected.name}: status ${expected.status} -> ${actual.status}`)
    for (const header of new Set([...Object.keys(expected.headers), ...Object.keys(actual.headers)])) {
      if (byteHeaders.has(header)) {
        if ((expected.headers[header] === undefined) !== (actual.headers[header] === undefined))
          differences.push(
            `${expected.name}: header ${header}: ${expected.headers[header]} -> ${actual.headers[header]}`
          )
      } else if (expected.headers[header] !== actual.headers[header]) {
        differences.push(`${expected.name}: header ${header}: ${expected.headers[header]} -> ${actual.headers[header]}`)
      }
    }
    const was = parsed(expected.body)
    const now = parsed(actual.body)
    if (was !== undefined && now !== undefined) {
      const found: Array<string> = []
      differencesIn(was, now, "body", found)
      differences.push(...found.map((difference) => `${expected.name}: ${difference}`))
    } else if (normalise(actual.body, false) !== normalise(expected.body, false)) {
      const [golden, now] = [normalise(expected.body, false), normalise(actual.body, false)]
      let at = 0
      while (at < golden.length && golden[at] === now[at]) at++
      differences.push(
        `${expected.name}: body differs at ${at}:\n  golden: ${golden.slice(Math.max(0, at - 80), at + 200)}\n  now:    ${now.slice(Math.max(0, at - 80), at + 200)}`
      )
    }
  }
  for (const answer of fresh)
    if (!golden.some((expected) => expected.name === answer.name)) differences.push(`${answer.name}: not recorded`)
  return differences
}

const main = async () => {
  const fresh = await run()
  if (process.argv.includes("--record")) {
    mkdirSync(dirname(goldenFile), { recursive: true })
    writeFileSync(goldenFile, `${JSON.stringify(fresh, null, 2)}\n`)
    console.log(`recorded ${fresh.length} answers in ${goldenFile}`)
    return
  }
  const golden = JSON.parse(readFileSync(goldenFile, "utf8")) as Array<Answer>
  const differences = compare(golden, fresh)
  if (process.argv.includes("--write-fresh"))
    writeFileSync(join(tmpdir(), "contract-fresh.json"), JSON.stringify(fresh, null, 2))
  for (const difference of differences) console.log(difference)
  console.log(`${golden.length} answers compared, ${differences.length} differences`)
  process.exitCode = differences.length === 0 ? 0 : 1
}

await main()
