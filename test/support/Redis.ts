import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { type AddressInfo, createConnection, createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, type Scope } from "effect"
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

export interface RedisServerOptions {
  /** `requirepass`: the default user's password. */
  readonly password?: string
  /** An ACL user besides the default one, with every right. */
  readonly user?: { readonly name: string; readonly password: string }
  /** Serve TLS only, with this certificate and key (PEM). */
  readonly tls?: { readonly cert: string; readonly key: string }
}

export interface RedisServer {
  readonly port: number
  /** SIGSTOP: connections stay open and new ones are accepted by the kernel, but nothing answers. */
  readonly freeze: () => void
  /** SIGCONT. */
  readonly thaw: () => void
  /** Killed: connections are closed and new ones refused. */
  readonly stop: () => Promise<void>
  /** A new server on the same port, empty. */
  readonly restart: () => Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

/**
 * A real redis-server of the test's own on a free loopback port, with nothing persisted, stopped
 * with the scope. It can be frozen (SIGSTOP), stopped and started again on the same port.
 */
export const redisServer = (options: RedisServerOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const port = await freePort()
      const dir = mkdtempSync(join(tmpdir(), "booking-redis-"))
      const files = options.tls && {
        cert: join(dir, "server.crt"),
        key: join(dir, "server.key")
      }
      if (files && options.tls) {
        writeFileSync(files.cert, options.tls.cert)
        writeFileSync(files.key, options.tls.key)
      }
      const args = [
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "no",
        ...(files
          ? ["--port", "0", "--tls-port", String(port), "--tls-cert-file", files.cert, "--tls-key-file", files.key]
          : ["--port", String(port)]),
        ...(files ? ["--tls-ca-cert-file", files.cert, "--tls-auth-clients", "no"] : []),
        ...(options.password ? ["--requirepass", options.password] : []),
        ...(options.user ? ["--user", options.user.name, "on", `>${options.user.password}`, "~*", "&*", "+@all"] : [])
      ]
      let child: ChildProcess | undefined
      const start = () =>
        new Promise<void>((ready, failed) => {
          const started = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] })
          child = started
          let output = ""
          const onData = (chunk: Buffer) => {
            output += chunk.toString()
            if (output.includes("Ready to accept connections")) {
              started.stdout.off("data", onData)
              started.stdout.resume()
              ready()
            }
          }
          started.stdout.on("data", onData)
          started.stderr.resume()
          started.once("exit", (code) => failed(new Error(`redis-server exited (${code}): ${output}`)))
        })
      const stop = () =>
        new Promise<void>((stopped) => {
          const running = child
          if (running === undefined || running.exitCode !== null || running.signalCode !== null) return stopped()
          running.once("exit", () => stopped())
          running.kill("SIGCONT")
          running.kill("SIGKILL")
        })
      await start()
      return {
        port,
        freeze: () => child?.kill("SIGSTOP"),
        thaw: () => child?.kill("SIGCONT"),
        stop,
        restart: async () => {
          await stop()
          await start()
        },
        close: async () => {
          await stop()
          rmSync(dir, { recursive: true, force: true })
        }
      }
    }),
    (server) => Effect.promise(server.close)
  ) as Effect.Effect<RedisServer, never, Scope.Scope>
