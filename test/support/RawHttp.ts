import { createConnection, type Socket } from "node:net"

/** A client that writes bytes as it likes: half a header, half a body, or nothing at all. */
export interface RawConnection {
  readonly socket: Socket
  readonly received: () => string
  /** Resolves when the server (or anything) closes the connection. */
  readonly closed: Promise<void>
}

export const rawConnect = (port: number, host = "127.0.0.1") =>
  new Promise<RawConnection>((resolve, reject) => {
    const socket = createConnection({ port, host })
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
