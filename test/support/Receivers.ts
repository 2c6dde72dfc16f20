import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import { type AddressInfo, createConnection, createServer, type Server as NetServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TLSSocket } from "node:tls"
import { onTestFinished } from "@effect/vitest"
import { Effect, type Scope } from "effect"
import { Redis } from "ioredis"
import { SMTPServer } from "smtp-server"
import { Webhook } from "standardwebhooks"
import type { CheckedAddress } from "../../src/Shared/Destination.js"

/**
 * Real local peers on 127.0.0.1 and port 0: an SMTP server, the webhook receiver, a closing and a
 * silent socket, and Redis (a fake one that can freeze, a real redis-server, the shared one).
 */

export interface ReceivedMail {
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
}

/** Just enough MIME for what nodemailer writes: folded RFC 2047 subjects and quoted-printable or base64 text. */
const utf8 = (binary: string) => Buffer.from(binary, "latin1").toString("utf8")
const hexBytes = (text: string) =>
  text.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

const decodeHeader = (value: string) =>
  utf8(
    value
      .replace(/\?=\s+=\?/g, "?==?")
      .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_, encoding: string, text: string) =>
        encoding.toUpperCase() === "B"
          ? Buffer.from(text, "base64").toString("latin1")
          : hexBytes(text.replace(/_/g, " "))
      )
  )

const parseMail = (raw: string, to: ReadonlyArray<string>): ReceivedMail => {
  const split = raw.indexOf("\r\n\r\n")
  const headers = raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, " ")
    .split("\r\n")
  const header = (name: string) =>
    headers
      .find((line) => line.toLowerCase().startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim() ?? ""
  const body = raw.slice(split + 4)
  const encoding = header("content-transfer-encoding").toLowerCase()
  const text =
    encoding === "quoted-printable"
      ? utf8(hexBytes(body.replace(/=\r\n/g, "")))
      : encoding === "base64"
        ? Buffer.from(body, "base64").toString("utf8")
        : body
  return { to, subject: decodeHeader(header("subject")), text: text.replace(/\r\n/g, "\n") }
}

export const smtpServer = () =>
  Effect.acquireRelease(
    Effect.callback<{ readonly port: number; readonly messages: Array<ReceivedMail>; readonly server: SMTPServer }>(
      (resume) => {
        const messages: Array<ReceivedMail> = []
        const server = new SMTPServer({
          authOptional: true,
          disabledCommands: ["STARTTLS"],
          logger: false,
          closeTimeout: 500,
          onData(stream, session, callback) {
            const chunks: Array<Buffer> = []
            stream.on("data", (chunk: Buffer) => chunks.push(chunk))
            stream.on("end", () => {
              const to = session.envelope.rcptTo.map((recipient) => recipient.address)
              messages.push(parseMail(Buffer.concat(chunks).toString("latin1"), to))
              callback()
            })
          }
        })
        server.once("error", (error) => resume(Effect.die(error)))
        server.listen(0, "127.0.0.1", () =>
          resume(Effect.succeed({ port: (server.server.address() as AddressInfo).port, messages, server }))
        )
      }
    ),
    ({ server }) => Effect.callback<void>((resume) => server.close(() => resume(Effect.void)))
  )

/**
 * A peer that is down: it holds its port for the whole test (no other server can take it) and
 * closes every connection as soon as it arrives, until `handTo` passes later connections to a
 * real server (`smtp.server.server`), as if the peer came back on the same port.
 */
export const closingServer = Effect.acquireRelease(
  Effect.callback<{
    readonly port: number
    readonly handTo: (server: NetServer) => void
    readonly close: () => Promise<void>
  }>((resume) => {
    let target: NetServer | undefined
    const server = createServer((socket) => {
      if (target) target.emit("connection", socket)
      else socket.destroy()
    })
    server.listen(0, "127.0.0.1", () =>
      resume(
        Effect.succeed({
          port: (server.address() as AddressInfo).port,
          handTo: (to: NetServer) => {
            target = to
          },
          close: () => new Promise<void>((done) => server.close(() => done()))
        })
      )
    )
  }),
  ({ close }) => Effect.promise(close)
)

/** Accepts connections and never says a word, like an SMTP server that hangs. */
export const silentServer = Effect.acquireRelease(
  Effect.callback<{
    readonly port: number
    /** Connections open now. */
    readonly connections: () => number
    readonly close: () => Promise<void>
  }>((resume) => {
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on("error", () => {})
      socket.on("close", () => sockets.delete(socket))
    })
    const close = () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => done())
      })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({ port: (server.address() as AddressInfo).port, connections: () => sockets.size, close }))
    )
  }),
  ({ close }) => Effect.promise(close)
)

/** A delivery as the webhook receiver read it, headers flattened to one string each. */
export interface ReceivedDelivery {
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string
  /** The TLS server name the sender asked for (https receivers only). */
  readonly servername?: string
}

/**
 * How the webhook receiver answers a delivery it has read whole, with every delivery so far (this
 * one last); one that does nothing makes the sender wait.
 */
export type Answer = (
  request: IncomingMessage,
  response: ServerResponse,
  received: ReadonlyArray<ReceivedDelivery>
) => void

export const answerStatus =
  (status: number, body = "ok") =>
  (_request: IncomingMessage, response: ServerResponse): void => {
    response.statusCode = status
    response.end(body)
  }

/** Reads a delivery whole and never answers: the sender waits until its own timeout. */
export const hang: Answer = () => {}

/** The given statuses (or answers) in turn, one per delivery, then `then` (200 by default). */
export const inTurn = (answers: ReadonlyArray<number | Answer>, then: Answer = answerStatus(200)): Answer => {
  const script = [...answers]
  return (request, response, received) => {
    const next = script.shift() ?? then
    return (typeof next === "number" ? answerStatus(next) : next)(request, response, received)
  }
}

export interface Receiver {
  readonly port: number
  readonly received: Array<ReceivedDelivery>
  /** What the sender pins the receiver's name to. */
  readonly address: CheckedAddress
  /** Where it listens, `http://127.0.0.1:<port>/hooks/booking` (https with `tls`). */
  readonly url: string
  /** The same port under another host name or path, for tests of what the sender does with the name. */
  readonly urlAt: (host?: string, path?: string) => URL
}

export interface ReceiverOptions {
  /** A port of the test's choosing: a receiver that was down comes back on the same one. */
  readonly port?: number
  /** Serve https with this key and certificate (PEM). */
  readonly tls?: { readonly key: string; readonly cert: string }
}

const flatHeaders = (request: IncomingMessage) =>
  Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(", ") : (value ?? "")
    ])
  )

const listenForHooks = async (answer: Answer, options: ReceiverOptions) => {
  const received: Array<ReceivedDelivery> = []
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const servername = (request.socket as Partial<TLSSocket>).servername
      received.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: flatHeaders(request),
        body: Buffer.concat(chunks).toString("utf8"),
        ...(typeof servername === "string" ? { servername } : {})
      })
      answer(request, response, received)
    })
  }
  const server = options.tls ? createHttpsServer(options.tls, handle) : createHttpServer(handle)
  await new Promise<void>((listening) => server.listen(options.port ?? 0, "127.0.0.1", listening))
  const port = (server.address() as AddressInfo).port
  const urlAt = (host = "127.0.0.1", path = "/hooks/booking") =>
    new URL(`${options.tls ? "https" : "http"}://${host}:${port}${path}`)
  const receiver: Receiver = {
    port,
    received,
    address: { address: "127.0.0.1", family: 4 },
    url: urlAt().href,
    urlAt
  }
  const close = () =>
    new Promise<void>((closed) => {
      server.closeAllConnections()
      server.close(() => closed())
    })
  return { receiver, close }
}

const answerOf = (answer: Answer | ReadonlyArray<number>): Answer =>
  typeof answer === "function" ? answer : inTurn(answer)

/**
 * The webhook receiver: a real HTTP (or https) server on 127.0.0.1 that keeps every delivery and
 * answers each as `answer` says (statuses in turn, then 200), closed with the scope.
 */
export const webhookReceiver = (answer: Answer | ReadonlyArray<number> = [], options: ReceiverOptions = {}) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(() => listenForHooks(answerOf(answer), options)),
      ({ close }) => Effect.promise(close)
    ),
    ({ receiver }) => receiver
  )

/** The webhook receiver for a test written with promises: closed when the test finishes. */
export const startReceiver = async (answer: Answer | ReadonlyArray<number> = [], options: ReceiverOptions = {}) => {
  const { receiver, close } = await listenForHooks(answerOf(answer), options)
  onTestFinished(close)
  return receiver
}

/** What a partner's receiver does with the reference library: the parsed event, or the library's error. */
export const verifyWith = (secret: string, delivery: Pick<ReceivedDelivery, "body" | "headers">): unknown =>
  new Webhook(secret).verify(delivery.body, delivery.headers)

/**
 * `verifyWith` as a receiver whose clock reads `atMs` would run it (the library reads Date.now for
 * its 5-minute tolerance): for deliveries signed at the test clock's time. A raw-format secret
 * (a provider's own, not `whsec_`) is read as its bytes.
 */
export const verifyAt = (
  secret: string,
  delivery: Pick<ReceivedDelivery, "body" | "headers">,
  atMs: number,
  options: { readonly raw?: boolean } = {}
): unknown => {
  const realNow = Date.now
  Date.now = () => atMs
  try {
    const webhook = options.raw ? new Webhook(secret, { format: "raw" }) : new Webhook(secret)
    return webhook.verify(delivery.body, delivery.headers)
  } finally {
    Date.now = realNow
  }
}

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
