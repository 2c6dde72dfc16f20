import { createConnection } from "node:net"

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
