import { type AddressInfo, createConnection, createServer, type Socket } from "node:net"
import { Effect } from "effect"
import { Redis } from "ioredis"

/** Whether a Redis answers on 127.0.0.1:6379 (it does on this project's machines, not on a fresh one). */
export const redisAnswers = () =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port: 6379 })
    const answer = (answered: boolean) => {
      socket.destroy()
      resolve(answered)
    }
    socket.setTimeout(500)
    socket.once("connect", () => answer(true))
    socket.once("error", () => answer(false))
    socket.once("timeout", () => answer(false))
  })

/** The shared Redis at 127.0.0.1:6379: keys under `prefix` (a test's own), read or removed. */
const underPrefix = <A>(prefix: string, use: (redis: Redis, keys: Array<string>) => Promise<A>) =>
  Effect.promise(async () => {
    const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true, maxRetriesPerRequest: 0 })
    try {
      await redis.connect()
      return await use(redis, await redis.keys(`${prefix}*`))
    } finally {
      redis.disconnect()
    }
  })

export const sharedRedisKeys = (prefix: string) => underPrefix(prefix, async (_, keys) => keys.sort())

export const removeSharedRedisKeys = (prefix: string) =>
  underPrefix(prefix, async (redis, keys) => {
    if (keys.length > 0) await redis.del(...keys)
  })

export interface FakeRedis {
  readonly port: number
  /** Commands received so far, by name (INFO, EVALSHA, ...). */
  readonly received: Array<string>
  /** Stop answering, on the open connections and on new ones, like a frozen Redis. */
  readonly freeze: () => void
  /** Answer again, including what arrived while frozen. */
  readonly thaw: () => void
}

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`

/** Splits complete RESP arrays of bulk strings (what a client sends) off the front of `buffer`. */
const takeCommands = (buffer: string): { readonly commands: Array<Array<string>>; readonly rest: string } => {
  const commands: Array<Array<string>> = []
  let at = 0
  for (;;) {
    const head = /^\*(\d+)\r\n/.exec(buffer.slice(at))
    if (!head) break
    let cursor = at + head[0].length
    const args: Array<string> = []
    for (let i = 0; i < Number(head[1]); i++) {
      const length = /^\$(\d+)\r\n/.exec(buffer.slice(cursor))
      if (!length || buffer.length < cursor + length[0].length + Number(length[1]) + 2) {
        return { commands, rest: buffer.slice(at) }
      }
      cursor += length[0].length
      args.push(buffer.slice(cursor, cursor + Number(length[1])))
      cursor += Number(length[1]) + 2
    }
    commands.push(args)
    at = cursor
  }
  return { commands, rest: buffer.slice(at) }
}

/**
 * Just enough of Redis for the rate limiter: INFO for the client's ready check, and the
 * fixed-window script (EVALSHA) answered with a count per key. It can be frozen mid-service.
 */
export const fakeRedis = Effect.acquireRelease(
  Effect.callback<FakeRedis & { readonly close: () => Promise<void> }>((resume) => {
    const received: Array<string> = []
    const counts = new Map<string, number>()
    const sockets = new Set<Socket>()
    let frozen = false
    const pending: Array<() => void> = []
    const answer = (socket: Socket, [name = "", ...args]: Array<string>) => {
      received.push(name.toUpperCase())
      switch (name.toUpperCase()) {
        case "INFO":
          return socket.write(bulk("# Server\r\nredis_version:7.2.0\r\nloading:0\r\n"))
        case "EVALSHA":
        case "EVAL": {
          const key = args[2] ?? ""
          const count = (counts.get(key) ?? 0) + Number(args[3] ?? 1)
          counts.set(key, count)
          return socket.write(`*2\r\n:${count}\r\n:60000\r\n`)
        }
        default:
          return socket.write("+OK\r\n")
      }
    }
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on("error", () => {})
      socket.on("close", () => sockets.delete(socket))
      let buffer = ""
      socket.setEncoding("utf8")
      socket.on("data", (chunk: string) => {
        const { commands, rest } = takeCommands(buffer + chunk)
        buffer = rest
        for (const command of commands) {
          if (frozen) pending.push(() => answer(socket, command))
          else answer(socket, command)
        }
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(
        Effect.succeed({
          port: (server.address() as AddressInfo).port,
          received,
          freeze: () => {
            frozen = true
          },
          thaw: () => {
            frozen = false
            for (const reply of pending.splice(0)) reply()
          },
          close: () =>
            new Promise<void>((done) => {
              for (const socket of sockets) socket.destroy()
              server.close(() => done())
            })
        })
      )
    )
  }),
  ({ close }) => Effect.promise(close)
)
