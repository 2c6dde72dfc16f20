import { randomBytes } from "node:crypto"
import { type AddressInfo, connect, createConnection, createServer, type Socket } from "node:net"
import { Clock, Context, Effect, Layer, Redacted, References } from "effect"
import { SqlClient } from "effect/sql"
import { inject } from "vitest"
import { pgClientLayer } from "../../src/Database/Database.js"

/** The harness's own statements make no spans: tests that watch the tracer see only the server's. */
const admin = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.provide(effect, pgClientLayer(Redacted.make(inject("databaseUrl")), { maxConnections: 1 })).pipe(
    Effect.scoped,
    Effect.provideService(References.TracerEnabled, false)
  )

const created = (template: string) =>
  Effect.gen(function* () {
    const name = `booking_test_${randomBytes(6).toString("hex")}_${inject("templateDatabase").split("_").pop()}`
    yield* admin(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`))
    )
    return name
  })

/**
 * The next clone of the migrated template, made while the test before it runs: a clone costs
 * PostgreSQL a few hundred milliseconds, which this fork then does not wait for. Off any test's
 * fiber (and TestClock); one that fails is made again when asked for. The run's teardown
 * (test/support/globalSetup.ts) drops the last one with every other leftover.
 */
let spare: Promise<string> | undefined
const nextClone = () => {
  spare = Effect.runPromise(created(inject("templateDatabase")))
  spare.catch(() => undefined)
}
const takeClone = Effect.suspend(() => {
  const taken = spare
  nextClone()
  const now = created(inject("templateDatabase"))
  return taken === undefined ? now : Effect.tryPromise(() => taken).pipe(Effect.catch(() => now))
})

/**
 * A fresh database, dropped when the scope closes: a clone of the migrated template, or
 * with `empty`, one that has never seen a migration. The drop runs in the background (nothing
 * waits for it: the name is never used again, and the run's teardown drops any it did not finish).
 */
export const makeDatabase = (options?: { readonly empty?: boolean }) =>
  Effect.acquireRelease(
    Effect.map(options?.empty ? created("template1") : takeClone, (name) => ({
      name,
      url: databaseUrlFor(inject("databaseUrl"), name)
    })),
    ({ name }) =>
      Effect.sync(() => {
        Effect.runPromise(
          admin(
            Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
          )
        ).catch(() => undefined)
      })
  ).pipe(Effect.orDie)

export const freshDatabaseUrl = makeDatabase()

/** Runs SQL as the server's superuser on its maintenance database. */
export const adminSql = admin

/**
 * SqlClient on the database at `url`. Its pool runs on the real clock: @effect/sql-pg 4 keeps the
 * pool's timers on the clock it was built with, and a test moving a TestClock from 1970 to its own
 * date would otherwise replay decades of them.
 */
export const testDatabaseAt = (url: string) =>
  pgClientLayer(Redacted.make(url)).pipe(
    Layer.orDie,
    Layer.provide(Layer.succeed(Clock.Clock, Clock.Clock.defaultValue()))
  )

/** SqlClient on this test file's own database. */
export const TestDatabaseLive = Layer.unwrap(Effect.map(freshDatabaseUrl, ({ url }) => testDatabaseAt(url)))

/** The same server and credentials, another database. */
export const databaseUrlFor = (url: string, database: string) => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/**
 * A TCP proxy between the service and its PostgreSQL that a test can break: refuse every
 * connection (an outage), or lose the connection exactly at the next run of the statement that
 * claims an idempotency key and writes with it, before it reaches PostgreSQL or after PostgreSQL
 * carried it out (a write whose outcome the service cannot know).
 */
export interface DatabaseFaults {
  readonly outage: Effect.Effect<void>
  readonly restore: Effect.Effect<void>
  /**
   * Loses the connection at the next run of the statement containing `statement` (by default the
   * one that claims an idempotency key; "COMMIT" loses a transaction's commit or its answer).
   */
  readonly loseNextWrite: (when: "before_write" | "after_write", statement?: string) => Effect.Effect<void>
}

export class DatabaseProxy extends Context.Service<DatabaseProxy, DatabaseFaults>()("test/DatabaseProxy") {}

/** Only the writing statement inserts into idempotency_keys. */
const writing = "INSERT INTO idempotency_keys"

const cString = (buffer: Buffer, at: number) => {
  const end = buffer.indexOf(0, at)
  return { text: buffer.toString("utf8", at, end), next: end + 1 }
}

/**
 * Reads a connection's frontend messages as they stream by and tells when one runs the statement
 * that contains `target()`: a simple query with its text, or a Bind of a statement whose Parse
 * carried it (the service prepares each statement once per connection, then only binds it).
 */
const writeDetector = (target: () => string) => {
  let pending = Buffer.alloc(0)
  let started = false
  const texts = new Map<string, string>()
  return (chunk: Buffer): boolean => {
    pending = Buffer.concat([pending, chunk])
    const writing = target()
    let runsWrite = false
    for (;;) {
      // The startup message (and an SSL request) has no type byte.
      const header = started ? 5 : 4
      if (pending.length < header) break
      const length = started ? pending.readInt32BE(1) + 1 : pending.readInt32BE(0)
      if (pending.length < length) break
      const message = pending.subarray(0, length)
      pending = pending.subarray(length)
      if (!started) {
        // An SSL request (80877103) is answered with one byte and followed by the real startup.
        if (message.readInt32BE(4) !== 80877103) started = true
        continue
      }
      const type = String.fromCharCode(message[0] ?? 0)
      if (type === "Q" && cString(message, 5).text.includes(writing)) runsWrite = true
      if (type === "P") {
        const name = cString(message, 5)
        const text = cString(message, name.next).text
        texts.set(name.text, text)
        // An unnamed statement is parsed and bound at once.
        if (name.text === "" && text.includes(writing)) runsWrite = true
      }
      if (type === "B") {
        const name = cString(message, cString(message, 5).next).text
        if (name !== "" && texts.get(name)?.includes(writing)) runsWrite = true
      }
    }
    return runsWrite
  }
}

const startProxy = (target: { readonly host: string; readonly port: number }) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly port: number; readonly faults: DatabaseFaults; readonly close: () => void }>(
      (resume) => {
        const pairs = new Set<readonly [Socket, Socket]>()
        let down = false
        let loseWrite: "before_write" | "after_write" | undefined
        let loseStatement = writing
        const server = createServer((client) => {
          if (down) {
            client.destroy()
            return
          }
          const upstream = connect(target.port, target.host)
          const pair = [client, upstream] as const
          pairs.add(pair)
          let dropOnAnswer = false
          const runsWrite = writeDetector(() => loseStatement)
          const close = () => {
            pairs.delete(pair)
            client.destroy()
            upstream.destroy()
          }
          client.on("data", (chunk: Buffer) => {
            if (runsWrite(chunk) && loseWrite !== undefined) {
              const when = loseWrite
              loseWrite = undefined
              if (when === "before_write") return close()
              // PostgreSQL answers once the statement has run and committed: that answer is lost.
              dropOnAnswer = true
            }
            upstream.write(chunk)
          })
          upstream.on("data", (chunk: Buffer) => (dropOnAnswer ? close() : client.write(chunk)))
          client.on("error", close)
          upstream.on("error", close)
          client.on("close", close)
          upstream.on("close", close)
        })
        server.listen(0, "127.0.0.1", () =>
          resume(
            Effect.succeed({
              port: (server.address() as AddressInfo).port,
              close: () => {
                for (const [client, upstream] of pairs) {
                  client.destroy()
                  upstream.destroy()
                }
                server.close()
              },
              faults: {
                outage: Effect.sync(() => {
                  down = true
                  for (const [client, upstream] of pairs) {
                    client.destroy()
                    upstream.destroy()
                  }
                  pairs.clear()
                }),
                restore: Effect.sync(() => {
                  down = false
                }),
                loseNextWrite: (when, statement = writing) =>
                  Effect.sync(() => {
                    loseWrite = when
                    loseStatement = statement
                  })
              }
            })
          )
        )
      }
    ),
    ({ close }) => Effect.sync(close)
  )

/** A fresh test database reached through a proxy the test can break (DatabaseProxy). */
export const FaultyDatabaseLive = Layer.unwrap(
  Effect.gen(function* () {
    const { url } = yield* makeDatabase()
    const parsed = new URL(url)
    const proxy = yield* startProxy({ host: parsed.hostname, port: Number(parsed.port) })
    parsed.port = String(proxy.port)
    return pgClientLayer(Redacted.make(parsed.toString()), { maxConnections: 4 }).pipe(
      Layer.orDie,
      Layer.merge(Layer.succeed(DatabaseProxy, proxy.faults))
    )
  })
)

export interface FreezableProxy {
  readonly port: number
  /** From now on nothing passes either way and new connections are accepted but not answered, as with a SIGSTOPped server. */
  readonly freeze: () => void
  /** Everything held flows again, as after SIGCONT. */
  readonly thaw: () => void
  /** How many writes and new connections were held while frozen, so far: a statement sent shows here. */
  readonly held: () => number
  /** `url` with its host and port replaced by the proxy's. */
  readonly urlFor: (url: string) => string
}

/**
 * A TCP proxy in front of a real server (the test PostgreSQL) that can be frozen: a database
 * that stops answering, without stopping the database other test files share.
 */
export const freezableProxy = (target: { readonly host: string; readonly port: number }) =>
  Effect.acquireRelease(
    Effect.callback<FreezableProxy & { readonly close: () => Promise<void> }>((resume) => {
      let frozen = false
      const pairs = new Set<readonly [Socket, Socket]>()
      const held: Array<() => void> = []
      // What clients sent while frozen, kept here (not in the kernel's buffers) so a test can see it arrive.
      const heldData = new Map<Socket, { readonly chunks: Array<Buffer>; readonly listener: (chunk: Buffer) => void }>()
      let heldCount = 0
      const flow = ([client, upstream]: readonly [Socket, Socket]) => {
        const held = heldData.get(client)
        if (held) {
          client.off("data", held.listener)
          heldData.delete(client)
          for (const chunk of held.chunks) upstream.write(chunk)
        }
        client.pipe(upstream)
        upstream.pipe(client)
      }
      const stop = ([client, upstream]: readonly [Socket, Socket]) => {
        client.unpipe(upstream)
        upstream.unpipe(client)
        upstream.pause()
        if (heldData.has(client)) return
        const chunks: Array<Buffer> = []
        const listener = (chunk: Buffer) => {
          chunks.push(chunk)
          heldCount += 1
        }
        heldData.set(client, { chunks, listener })
        client.on("data", listener)
        client.resume()
      }
      const server = createServer((client) => {
        client.on("error", () => {})
        const connect = () => {
          if (client.destroyed) return
          const upstream = createConnection(target)
          const pair = [client, upstream] as const
          upstream.on("error", () => client.destroy())
          client.on("close", () => {
            upstream.destroy()
            pairs.delete(pair)
          })
          upstream.on("close", () => client.destroy())
          pairs.add(pair)
          if (frozen) stop(pair)
          else flow(pair)
        }
        if (frozen) {
          heldCount += 1
          held.push(connect)
        } else connect()
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as AddressInfo).port
        resume(
          Effect.succeed({
            port,
            held: () => heldCount,
            freeze: () => {
              frozen = true
              for (const pair of pairs) stop(pair)
            },
            thaw: () => {
              frozen = false
              for (const pair of pairs) flow(pair)
              for (const connect of held.splice(0)) connect()
            },
            urlFor: (url: string) => {
              const parsed = new URL(url)
              parsed.hostname = "127.0.0.1"
              parsed.port = String(port)
              return parsed.toString()
            },
            close: () =>
              new Promise<void>((done) => {
                for (const [client, upstream] of pairs) {
                  client.destroy()
                  upstream.destroy()
                }
                server.close(() => done())
              })
          })
        )
      })
    }),
    ({ close }) => Effect.promise(close)
  )

/** Host and port of a postgres:// URL. */
export const addressOf = (url: string) => {
  const parsed = new URL(url)
  return { host: parsed.hostname, port: Number(parsed.port || 5432) }
}
