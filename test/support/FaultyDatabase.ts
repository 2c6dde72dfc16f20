import type { AddressInfo } from "node:net"
import { connect, createServer, type Socket } from "node:net"
import { Context, Effect, Layer, Redacted } from "effect"
import { pgClientLayer } from "../../src/Database.js"
import { makeDatabase } from "./TestDatabase.js"

/**
 * A TCP proxy between the service and its PostgreSQL that a test can break: refuse every
 * connection (an outage), or lose the connection exactly at the next COMMIT, before or after
 * PostgreSQL has carried it out (a commit whose outcome the service cannot know).
 */
export interface DatabaseFaults {
  readonly outage: Effect.Effect<void>
  readonly restore: Effect.Effect<void>
  readonly loseNextCommit: (when: "before_commit" | "after_commit") => Effect.Effect<void>
}

export class DatabaseProxy extends Context.Tag("test/DatabaseProxy")<DatabaseProxy, DatabaseFaults>() {}

const commit = Buffer.from("COMMIT")

const startProxy = (target: { readonly host: string; readonly port: number }) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; readonly faults: DatabaseFaults; readonly close: () => void }>((resume) => {
      const pairs = new Set<readonly [Socket, Socket]>()
      let down = false
      let loseCommit: "before_commit" | "after_commit" | undefined
      const server = createServer((client) => {
        if (down) {
          client.destroy()
          return
        }
        const upstream = connect(target.port, target.host)
        const pair = [client, upstream] as const
        pairs.add(pair)
        let dropOnAnswer = false
        const close = () => {
          pairs.delete(pair)
          client.destroy()
          upstream.destroy()
        }
        client.on("data", (chunk: Buffer) => {
          if (loseCommit !== undefined && chunk.includes(commit)) {
            const when = loseCommit
            loseCommit = undefined
            if (when === "before_commit") return close()
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
              loseNextCommit: (when) =>
                Effect.sync(() => {
                  loseCommit = when
                })
            }
          })
        )
      )
    }),
    ({ close }) => Effect.sync(close)
  )

/** A fresh test database reached through a proxy the test can break (DatabaseProxy). */
export const FaultyDatabaseLive = Layer.unwrapScoped(
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
