import { type AddressInfo, createConnection, createServer, type Socket } from "node:net"
import { Effect } from "effect"

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
