import { createServer as createHttpServer, type IncomingHttpHeaders } from "node:http"
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from "node:net"
import { Effect } from "effect"
import { SMTPServer } from "smtp-server"

/** Real local peers for notification tests: an SMTP server, a webhook receiver, a silent socket. */

export interface ReceivedMail {
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
}

export interface ReceivedHook {
  readonly headers: IncomingHttpHeaders
  readonly body: string
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
    const server = createNetServer((socket) => {
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
    const server = createNetServer((socket) => {
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

/** Answers the given statuses in turn, then 200. */
export const webhookReceiver = (statuses: Array<number> = []) =>
  Effect.acquireRelease(
    Effect.callback<{
      readonly url: string
      readonly received: Array<ReceivedHook>
      readonly server: ReturnType<typeof createHttpServer>
    }>((resume) => {
      const received: Array<ReceivedHook> = []
      const server = createHttpServer((request, response) => {
        let body = ""
        request.setEncoding("utf8")
        request.on("data", (chunk: string) => {
          body += chunk
        })
        request.on("end", () => {
          received.push({ headers: request.headers, body })
          response.statusCode = statuses.shift() ?? 200
          response.end("ok")
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(
          Effect.succeed({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/booking`,
            received,
            server
          })
        )
      )
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
