import { randomUUID } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import {
  Clock,
  ConfigProvider,
  Context,
  Effect,
  Fiber,
  Layer,
  Option,
  Redacted,
  Result,
  Schedule,
  type Scope
} from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { Webhook } from "standardwebhooks"
import { vi } from "vitest"
import { appConfig, appConfigFrom } from "../../src/AppConfig.js"
import { NotifierLive } from "../../src/Bookings/NotifierLive.js"
import { bookingConfirmation } from "../../src/Domain/Messages.js"
import { retryDelayMs } from "../../src/Notifications/Attempts.js"
import { NotificationDispatcherLive } from "../../src/Notifications/Dispatcher.js"
import { Notifier } from "../../src/Notifications/Notifier.js"
import { TestDatabaseLive } from "../support/Database.js"
import { closingServer, silentServer, smtpServer, webhookReceiver } from "../support/Receivers.js"
import { waitFor } from "../support/Time.js"

/**
 * A notifier of its own, without its dispatcher: only deliverNow attempts a row. Waits long enough
 * that a loaded CI machine still sees deliveries finish inside deliverNow.
 */
const notifierWith = <R = never>(
  env: Record<string, string>,
  loops: Layer.Layer<never, never, R | Notifier> = Layer.empty
) =>
  Layer.build(
    Layer.merge(NotifierLive, loops.pipe(Layer.provide(NotifierLive))).pipe(
      Layer.provide(appConfigFrom({ NOTIFY_WAIT_MS: "10000", ...env }))
    )
  ).pipe(Effect.map(Context.get(Notifier)))

/** A notifier of its own with its dispatcher, a pass every NOTIFY_POLL_MS. */
const dispatchingNotifierWith = (env: Record<string, string>) => notifierWith(env, NotificationDispatcherLive)
const smtpAt = (port: number) => ({ SMTP_URL: `smtp://127.0.0.1:${port}` })

/**
 * The test clock is brought to now before the database is built: @effect/sql-pg 4's pool keeps its
 * timers on the fiber's clock, and moving a test clock from 1970 to a test's date afterwards would
 * replay 56 years of them. Under `it.live` the clock is the real one and is left alone.
 */
const clockToNow = Effect.clockWith((clock) => ("setTime" in clock ? TestClock.setTime(Date.now()) : Effect.void))

const withDatabase = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | Scope.Scope>) =>
  Effect.andThen(clockToNow, effect.pipe(Effect.scoped, Effect.provide(TestDatabaseLive)))

const confirmation = bookingConfirmation({
  bookingId: "0b6c3d4e-1f2a-4b5c-8d9e-0a1b2c3d4e5f",
  requestId: "REQ-7F3K9Q",
  providerId: "rormokarna-sthlm",
  providerName: "Rörmokarna i Stockholm AB",
  serviceLabelSv: "Byte av blandare",
  slotStart: new Date("2026-11-23T07:00:00Z"),
  slotEnd: new Date("2026-11-23T09:00:00Z"),
  timeZone: "Europe/Stockholm",
  price: { amountSek: 1990, pricingModel: "flat", priceType: "avg_fixed" },
  termsVersion: "2026-01-15-standard",
  termsUrl: "https://example.se/villkor/2026-01-15-standard",
  serviceAddress: "Storgatan 1, 111 22 Stockholm",
  customerName: "Anna Andersson"
})

const providerId = "rormokarna-sthlm"
const webhookSecret = "whsec-0123456789abcdef0123456789abcdef"

const insertProvider = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`INSERT INTO providers (id, name, city, notify_webhook_secret)
    VALUES (${providerId}, 'Rörmokarna i Stockholm AB', 'Stockholm', ${webhookSecret})`
)

interface NewRow {
  readonly subjectId?: string
  readonly role?: "customer" | "provider"
  readonly channel: "email" | "webhook" | "none"
  readonly address: string | null
  readonly status?: "pending" | "skipped"
  readonly subject?: string
  readonly body?: string
  readonly payload?: Record<string, unknown>
  /** Relative to now; negative is in the past. */
  readonly giveUpMinutes?: number
  readonly createdMinutesAgo?: number
}

/**
 * Rows are due a minute before the database's now(): the notifier claims on the service's clock,
 * which a test either starts at the database's time (TestClock) or reads in whole milliseconds.
 */
const insertRow = (row: NewRow) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const id = randomUUID()
    const role = row.role ?? (row.channel === "webhook" ? "provider" : "customer")
    const message = role === "provider" ? confirmation.provider : { ...confirmation.customer, payload: {} }
    yield* sql`
      INSERT INTO notification_outbox (id, topic, subject_id, recipient_role, provider_id, channel, address,
        subject, body, payload, status, give_up_at, created_at, next_attempt_at)
      VALUES (${id}, 'booking_confirmed', ${row.subjectId ?? randomUUID()}, ${role},
        ${role === "provider" ? providerId : null}, ${row.channel}, ${row.address},
        ${row.subject ?? message.subject}, ${row.body ?? message.body},
        ${JSON.stringify(row.payload ?? message.payload)}::jsonb, ${row.status ?? "pending"},
        now() + make_interval(mins => ${row.giveUpMinutes ?? 24 * 60}),
        now() - make_interval(mins => ${row.createdMinutesAgo ?? 0}),
        now() - interval '1 minute')`
    return id
  })

const makeDue = (id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`UPDATE notification_outbox SET next_attempt_at = now() - interval '1 minute' WHERE id = ${id}`
  )

const stateOf = (notifier: Notifier["Service"], id: string) =>
  Effect.flatMap(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ subjectId: string }>`SELECT subject_id FROM notification_outbox WHERE id = ${id}`
    ),
    (rows) =>
      Effect.map(notifier.statesOf(rows.map((row) => row.subjectId)), (states) => states.find((s) => s.id === id)!)
  )

const eventually = <A, E, R>(effect: Effect.Effect<A, E, R>, done: (a: A) => boolean, timeoutMs = 5000) =>
  effect.pipe(
    Effect.filterOrFail(done, () => "not yet"),
    Effect.retry({ schedule: Schedule.spaced("50 millis"), while: (error) => error === "not yet" }),
    Effect.timeout(timeoutMs)
  )

/** The database's clock, which stamps every outbox time. */
const databaseNow = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ now: Date }>`SELECT now() AS now`, ([row]) => row!.now.getTime())
)

/**
 * Gives the dispatchers time to finish a pass and sleep again. Effect 4's TestClock does not list
 * its sleepers (Effect 3's `TestClock.sleeps` did), so this waits a little real time instead.
 */
const untilSleeping = (_at: number, _count = 1) =>
  Effect.gen(function* () {
    for (let i = 0; i < 10; i++) {
      yield* Effect.yieldNow
      yield* TestClock.withLive(Effect.sleep("10 millis"))
    }
  })

/** Runs the dispatchers (`count` of them, each polling every `pollMs`) for one pass and waits until they sleep again. */
const dispatcherPass = (pollMs: number, count = 1) =>
  Effect.gen(function* () {
    yield* TestClock.adjust(pollMs)
    yield* untilSleeping((yield* Clock.currentTimeMillis) + pollMs, count)
  })

const loadConfig = (env: Record<string, string>) => Effect.result(appConfig.parse(ConfigProvider.fromEnvRecord(env)))

describe("notification settings", () => {
  it.effect("have defaults, keep SMTP_URL Redacted, and name the variable when a value is wrong", () =>
    Effect.gen(function* () {
      const defaults = Result.getOrThrow(yield* loadConfig({}))
      expect(defaults).toMatchObject({
        notifyFrom: "Bokning <bokning@localhost>",
        notifyWaitMs: 2000,
        notifyGiveUpHours: 24,
        notifyPollMs: 5000
      })
      expect(Option.isNone(defaults.smtpUrl)).toBe(true)
      const smtp = Result.getOrThrow(yield* loadConfig({ SMTP_URL: "smtps://user:secret@mail.example.se:465" }))
      expect(Option.map(smtp.smtpUrl, Redacted.value)).toEqual(Option.some("smtps://user:secret@mail.example.se:465"))
      expect(String(Option.getOrThrow(smtp.smtpUrl))).toBe("<redacted>")
      for (const [name, value] of [
        ["SMTP_URL", "https://user:secret@mail.example.se"],
        ["SMTP_URL", "not a url"],
        ["NOTIFY_WAIT_MS", "10001"],
        ["NOTIFY_WAIT_MS", "-1"],
        ["NOTIFY_GIVE_UP_HOURS", "0"],
        ["NOTIFY_GIVE_UP_HOURS", "169"],
        ["NOTIFY_POLL_MS", "fast"]
      ] as const) {
        const result = yield* loadConfig({ [name]: value })
        expect(Result.isFailure(result) ? String(result.failure) : "loaded").toContain(name)
        expect(Result.isFailure(result) ? String(result.failure) : "").not.toContain("secret")
      }
    })
  )
})

describe("Notifier", () => {
  it("retries 30 s after the first failure, doubling to at most 30 min, less up to a fifth at random", () => {
    expect([1, 2, 3, 4, 6, 7, 20].map((n) => retryDelayMs(n, 0))).toEqual([
      30_000, 60_000, 120_000, 240_000, 960_000, 1_800_000, 1_800_000
    ])
    expect(retryDelayMs(1, 0.999)).toBeGreaterThan(24_000)
    expect(retryDelayMs(30, 0.999)).toBeLessThanOrEqual(1_800_000)
  })

  it.live("enqueue writes in the caller's transaction: its rows roll back and commit with it", () =>
    withDatabase(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const notifier = yield* notifierWith({})
        const subjectId = randomUUID()
        const rows = (["customer", "provider"] as const).map((recipientRole) => ({
          id: randomUUID(),
          topic: "booking_confirmed" as const,
          subjectId,
          recipientRole,
          providerId: null,
          channel: "none" as const,
          address: null,
          subject: "Bokning",
          body: "Bekräftad",
          payload: {}
        }))
        const now = new Date("2026-11-23T08:00:00Z")
        const stored = sql<{ n: number }>`
          SELECT count(*)::int AS n FROM notification_outbox WHERE subject_id = ${subjectId}::uuid`.pipe(
          Effect.map(([row]) => row!.n)
        )
        const refused = yield* sql
          .withTransaction(Effect.andThen(notifier.enqueue(rows, now), Effect.fail("booking refused" as const)))
          .pipe(Effect.flip)
        expect(refused).toBe("booking refused")
        expect(yield* stored).toBe(0)
        yield* sql.withTransaction(notifier.enqueue(rows, now))
        expect(yield* stored).toBe(2)
      })
    )
  )

  it.live("chooses the channel: providers prefer their webhook, e-mail only when SMTP is configured", () =>
    withDatabase(
      Effect.gen(function* () {
        const withSmtp = yield* notifierWith(smtpAt(2525))
        const withoutSmtp = yield* notifierWith({})
        const both = { email: "p@example.se", webhookUrl: "https://hooks.example.se/b" }
        expect(withSmtp.channelFor("provider", both)).toEqual({ channel: "webhook", address: both.webhookUrl })
        expect(withSmtp.channelFor("provider", { email: "p@example.se", webhookUrl: null })).toEqual({
          channel: "email",
          address: "p@example.se"
        })
        expect(withSmtp.channelFor("customer", both)).toEqual({ channel: "email", address: "p@example.se" })
        expect(withSmtp.channelFor("customer", { email: " " })).toEqual({ channel: "none", address: null })
        expect(withoutSmtp.channelFor("customer", { email: "c@example.se" })).toEqual({
          channel: "none",
          address: null
        })
        expect(withoutSmtp.channelFor("provider", { email: "p@example.se" })).toEqual({
          channel: "none",
          address: null
        })
        expect(withoutSmtp.channelFor("provider", both)).toEqual({ channel: "webhook", address: both.webhookUrl })
      })
    )
  )

  it.live("an e-mail is delivered right after commit and its row is sent", () =>
    withDatabase(
      Effect.gen(function* () {
        const smtp = yield* smtpServer()
        const notifier = yield* notifierWith({ ...smtpAt(smtp.port), NOTIFY_FROM: "Bokning <b@x.se>" })
        const id = yield* insertRow({ channel: "email", address: "anna@example.se" })
        const [state] = yield* notifier.deliverNow([id])
        expect(state).toMatchObject({ id, recipientRole: "customer", channel: "email", status: "sent", attempts: 1 })
        expect(state?.sentAt).toBeInstanceOf(Date)
        expect(state?.nextAttemptAt).toBeNull()
        expect(smtp.messages).toHaveLength(1)
        expect(smtp.messages[0]?.to).toEqual(["anna@example.se"])
        expect(smtp.messages[0]?.subject).toBe(confirmation.customer.subject)
        expect(smtp.messages[0]?.text).toContain("Din bokning hos Rörmokarna i Stockholm AB är bekräftad.")
        expect(smtp.messages[0]?.text).toContain("1 990 kr inkl. moms")
      })
    )
  )

  it.live("a webhook carries the JSON payload with a signature made with the provider's secret", () =>
    withDatabase(
      Effect.gen(function* () {
        const hooks = yield* webhookReceiver()
        yield* insertProvider
        const notifier = yield* notifierWith({
          APP_ENV: "production",
          PUBLIC_BASE_URL: "https://api.example.se",
          DATABASE_URL: "postgres://u@h/d"
        })
        const id = yield* insertRow({ channel: "webhook", address: hooks.url })
        const before = Math.floor(Date.now() / 1000)
        const [state] = yield* notifier.deliverNow([id])
        const after = Math.floor(Date.now() / 1000)
        expect(state).toMatchObject({ id, recipientRole: "provider", channel: "webhook", status: "sent", attempts: 1 })
        expect(hooks.received).toHaveLength(1)
        const { headers, body } = hooks.received[0]!
        expect(headers["content-type"]).toBe("application/json")
        // Standard Webhooks: the row's id as webhook-id, verified by the reference library with the
        // provider's secret (not whsec_, so read as its raw bytes); the old headers are gone.
        expect(headers["webhook-id"]).toBe(id)
        const timestamp = String(headers["webhook-timestamp"])
        expect(Number(timestamp)).toBeGreaterThanOrEqual(before)
        expect(Number(timestamp)).toBeLessThanOrEqual(after)
        const signed = { body, headers: headers as Record<string, string> }
        expect(new Webhook(webhookSecret, { format: "raw" }).verify(body, signed.headers)).toEqual(
          confirmation.provider.payload
        )
        expect(() => new Webhook("whsec-some-other-secret", { format: "raw" }).verify(body, signed.headers)).toThrow()
        expect(Object.keys(headers).filter((name) => name.startsWith("x-booking"))).toEqual([])
        expect(JSON.parse(body)).toEqual(confirmation.provider.payload)
      })
    )
  )

  it.live("in production a plain-http webhook that is not loopback is refused with a clear error", () =>
    withDatabase(
      Effect.gen(function* () {
        yield* insertProvider
        const notifier = yield* notifierWith({
          APP_ENV: "production",
          PUBLIC_BASE_URL: "https://api.example.se",
          DATABASE_URL: "postgres://u@h/d"
        })
        const id = yield* insertRow({ channel: "webhook", address: "http://hooks.example.se/booking" })
        const [state] = yield* notifier.deliverNow([id])
        expect(state).toMatchObject({ status: "pending", attempts: 1, lastError: "the webhook url must be https" })
      })
    )
  )

  it.effect("rows without a channel stay skipped and untouched, by deliverNow and by the dispatcher's passes", () =>
    withDatabase(
      Effect.gen(function* () {
        const smtp = yield* smtpServer()
        const notifier = yield* dispatchingNotifierWith({ ...smtpAt(smtp.port), NOTIFY_POLL_MS: "50" })
        const id = yield* insertRow({ channel: "none", address: null, status: "skipped" })
        const [state] = yield* notifier.deliverNow([id])
        for (let pass = 0; pass < 3; pass++) yield* dispatcherPass(50)
        const later = yield* stateOf(notifier, id)
        for (const seen of [state, later]) {
          expect(seen).toMatchObject({
            id,
            channel: "none",
            status: "skipped",
            attempts: 0,
            lastError: null,
            sentAt: null
          })
        }
        expect(smtp.messages).toHaveLength(0)
      })
    )
  )

  it.effect("the dispatcher runs only where it is composed: a notifier alone leaves a due row pending", () =>
    withDatabase(
      Effect.gen(function* () {
        const smtp = yield* smtpServer()
        const env = { ...smtpAt(smtp.port), NOTIFY_POLL_MS: "50" }
        const alone = yield* notifierWith(env)
        const id = yield* insertRow({ channel: "email", address: "anna@example.se" })
        for (let pass = 0; pass < 3; pass++) yield* dispatcherPass(50)
        expect(yield* stateOf(alone, id)).toMatchObject({ status: "pending", attempts: 0 })
        const dispatching = yield* dispatchingNotifierWith(env)
        yield* dispatcherPass(50)
        yield* waitFor(stateOf(dispatching, id), (state) =>
          expect(state).toMatchObject({ status: "sent", attempts: 1 })
        )
        expect(smtp.messages).toHaveLength(1)
      })
    )
  )

  it.live(
    "a dead SMTP server leaves the row pending for a retry, and the dispatcher sends it once the server is back",
    () =>
      withDatabase(
        Effect.gen(function* () {
          const down = yield* closingServer
          const notifier = yield* dispatchingNotifierWith({ ...smtpAt(down.port), NOTIFY_POLL_MS: "200" })
          const id = yield* insertRow({ channel: "email", address: "anna@example.se" })
          const before = yield* databaseNow
          yield* notifier.deliverNow([id])
          // The dispatcher may have taken the row first; either way it has one attempt behind it.
          const failed = yield* eventually(stateOf(notifier, id), (state) => state.attempts === 1)
          expect(failed).toMatchObject({ status: "pending", attempts: 1, sentAt: null })
          expect(failed.lastError).toContain("could not connect to the SMTP server")
          // The first retry is 24 to 30 s after the attempt, which fell between these two readings.
          expect(failed.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + 24_000)
          expect(failed.nextAttemptAt!.getTime()).toBeLessThanOrEqual((yield* databaseNow) + 30_000)

          const smtp = yield* smtpServer()
          down.handTo(smtp.server.server)
          yield* makeDue(id)
          const sent = yield* eventually(stateOf(notifier, id), (state) => state.status === "sent")
          expect(sent).toMatchObject({ attempts: 2, lastError: null })
          expect(smtp.messages.map((message) => message.subject)).toEqual([confirmation.customer.subject])
        })
      )
  )

  it.live("a webhook answering 500 is retried and then sent", () =>
    withDatabase(
      Effect.gen(function* () {
        const hooks = yield* webhookReceiver([500])
        yield* insertProvider
        const notifier = yield* dispatchingNotifierWith({ NOTIFY_POLL_MS: "200" })
        const id = yield* insertRow({ channel: "webhook", address: hooks.url })
        yield* notifier.deliverNow([id])
        const failed = yield* eventually(stateOf(notifier, id), (state) => state.attempts === 1)
        expect(failed).toMatchObject({ status: "pending", lastError: "the webhook answered 500" })
        yield* makeDue(id)
        const sent = yield* eventually(stateOf(notifier, id), (state) => state.status === "sent")
        expect(sent.attempts).toBe(2)
        expect(hooks.received.map((hook) => hook.headers["webhook-id"])).toEqual([id, id])
      })
    )
  )

  it.live("a failed attempt after the give-up time (or NOTIFY_GIVE_UP_HOURS) marks the row failed", () =>
    withDatabase(
      Effect.gen(function* () {
        const { port } = yield* closingServer
        const notifier = yield* notifierWith({ ...smtpAt(port), NOTIFY_GIVE_UP_HOURS: "2" })
        const late = yield* insertRow({ channel: "email", address: "anna@example.se", giveUpMinutes: -1 })
        const old = yield* insertRow({ channel: "email", address: "anna@example.se", createdMinutesAgo: 121 })
        const fresh = yield* insertRow({ channel: "email", address: "anna@example.se", createdMinutesAgo: 119 })
        const states = yield* notifier.deliverNow([late, old, fresh])
        const byId = new Map(states.map((state) => [state.id, state]))
        for (const id of [late, old]) {
          expect(byId.get(id)).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null })
          expect(byId.get(id)?.lastError).toContain("could not connect")
        }
        expect(byId.get(fresh)).toMatchObject({ status: "pending", attempts: 1 })
        // The last retry is due at the deadline (created_at + 2 h) rather than after it.
        const sql = yield* SqlClient.SqlClient
        const [deadline] = yield* sql<{ at: Date }>`
          SELECT created_at + make_interval(hours => 2) AS at FROM notification_outbox WHERE id = ${fresh}`
        expect(byId.get(fresh)!.nextAttemptAt!.getTime()).toBeLessThanOrEqual(deadline!.at.getTime())
      })
    )
  )

  it.effect("the service's clock drives the retries and the give-up: a row is due again only after its delay", () =>
    withDatabase(
      Effect.gen(function* () {
        const t0 = Date.parse("2026-11-23T08:00:00Z")
        yield* TestClock.setTime(t0)
        const { port } = yield* closingServer
        const notifier = yield* notifierWith({ ...smtpAt(port), NOTIFY_GIVE_UP_HOURS: "1" })
        const id = randomUUID()
        const row = {
          id,
          topic: "booking_confirmed" as const,
          subjectId: randomUUID(),
          recipientRole: "customer" as const,
          providerId: null,
          channel: "email" as const,
          address: "anna@example.se",
          subject: confirmation.customer.subject,
          body: confirmation.customer.body,
          payload: {}
        }
        // Written 59 minutes ago, so the hour's deadline is a minute away.
        yield* notifier.enqueue([row], new Date(t0 - 59 * 60_000))
        const [first] = yield* notifier.deliverNow([id])
        expect(first).toMatchObject({ status: "pending", attempts: 1 })
        const delay = first!.nextAttemptAt!.getTime() - t0
        expect(delay).toBeGreaterThanOrEqual(retryDelayMs(1, 1))
        expect(delay).toBeLessThanOrEqual(retryDelayMs(1, 0))
        expect(yield* notifier.deliverNow([id])).toMatchObject([{ attempts: 1 }])

        yield* TestClock.adjust("30 seconds")
        const [second] = yield* notifier.deliverNow([id])
        expect(second).toMatchObject({ status: "pending", attempts: 2 })
        // Its next delay would pass the deadline, so the last retry is due at the deadline.
        expect(second!.nextAttemptAt!.getTime()).toBe(t0 + 60_000)

        yield* TestClock.adjust("30 seconds")
        const [last] = yield* notifier.deliverNow([id])
        expect(last).toMatchObject({ status: "failed", attempts: 3, nextAttemptAt: null })
        expect(last?.lastError).toContain("could not connect")
      })
    )
  )

  it.effect("deliverNow answers after NOTIFY_WAIT_MS, not before, when the SMTP server accepts and never answers", () =>
    withDatabase(
      Effect.gen(function* () {
        const silent = yield* silentServer
        // Rows are claimed on the service's clock: start it at the database's, which stamps test rows.
        yield* TestClock.setTime(yield* databaseNow)
        const notifier = yield* notifierWith({ ...smtpAt(silent.port), NOTIFY_WAIT_MS: "500" })
        const id = yield* insertRow({ channel: "email", address: "anna@example.se" })
        const started = yield* Clock.currentTimeMillis
        const answering = yield* Effect.forkChild(notifier.deliverNow([id]))
        yield* untilSleeping(started + 500)
        // The attempt has taken its lease and is talking to the silent server.
        yield* Effect.promise(() => vi.waitFor(() => expect(silent.connections()).toBe(1)))
        yield* TestClock.adjust("499 millis")
        expect(answering.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("1 millis")
        const [state] = yield* Fiber.join(answering)
        // Still being attempted in the background, under its lease of 60 s.
        expect(state).toMatchObject({ id, status: "pending", attempts: 0 })
        expect(state!.nextAttemptAt!.getTime()).toBe(started + 60_000)
      })
    )
  )

  it.effect("two instances on one database send each due row exactly once", () =>
    withDatabase(
      Effect.gen(function* () {
        const smtp = yield* smtpServer()
        yield* TestClock.setTime(yield* databaseNow)
        const env = { ...smtpAt(smtp.port), NOTIFY_POLL_MS: "20" }
        const a = yield* dispatchingNotifierWith(env)
        const b = yield* dispatchingNotifierWith(env)
        const subjectId = randomUUID()
        const ids = yield* Effect.forEach(
          Array.from({ length: 45 }, (_, n) => n),
          (n) => insertRow({ subjectId, channel: "email", address: `c${n}@example.se`, subject: `Bokning ${n}` })
        )
        // On the test clock NOTIFY_WAIT_MS never runs out: each deliverNow returns once its attempts are done.
        yield* Effect.all([a.deliverNow(ids.slice(0, 30)), b.deliverNow(ids.slice(15))], { concurrency: 2 })
        // Then both dispatchers make a pass: nothing is left for them to send again.
        yield* dispatcherPass(20, 2)
        const states = yield* a.statesOf([subjectId])
        expect(states).toHaveLength(45)
        expect(states.every((state) => state.status === "sent" && state.attempts === 1)).toBe(true)
        expect(smtp.messages.map((message) => message.subject).sort()).toEqual(
          Array.from({ length: 45 }, (_, n) => `Bokning ${n}`).sort()
        )
      })
    )
  )
})
