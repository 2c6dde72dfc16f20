import type { AddressInfo } from "node:net"
import { connect, createServer, type Socket } from "node:net"
import { Context, Effect, Layer, Redacted } from "effect"
import { pgClientLayer } from "../../src/Database/Database.js"
import { makeDatabase } from "./TestDatabase.js"

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
