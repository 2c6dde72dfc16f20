import { createConnection, type Socket } from "node:net"

/** A client that writes bytes as it likes: half a header, half a body, or nothing at all. */
export interface RawConnection {
  readonly socket: Socket
  readonly received: () => string
  /** Resolves when the server (or anything) closes the connection. */
  readonly closed: Promise<void>
}

/** `localAddress` picks the client's source address: all of 127.0.0.0/8 is loopback on Linux. */
export const rawConnect = (port: number, host = "127.0.0.1", localAddress?: string) =>
  new Promise<RawConnection>((resolve, reject) => {
    const socket = createConnection(localAddress === undefined ? { port, host } : { port, host, localAddress })
    let received = ""
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => {
      received += chunk
    })
    const closed = new Promise<void>((done) => socket.once("close", () => done()))
    socket.once("error", reject)
    socket.once("connect", () => {
      socket.off("error", reject)
      socket.on("error", () => {})
      resolve({ socket, received: () => received, closed })
    })
  })

/** "connected", or the error code of a connection that was refused or reset. */
export const connectOutcome = (port: number, host = "127.0.0.1") =>
  rawConnect(port, host).then(
    ({ socket }) => {
      socket.destroy()
      return "connected"
    },
    (error: NodeJS.ErrnoException) => error.code ?? "error"
  )

export const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0)

/** With 100-continue, the interim answer shows the server holds the request before any body is sent. */
export const postHead = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`

/** The status of the final answer, after any 100 Continue. */
export const finalStatusOf = (response: string) => statusOf(response.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ""))
