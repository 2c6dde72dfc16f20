import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { vi } from "vitest"
import { makeDatabase } from "../support/Database.js"
import { rawConnect, searchBodyFor, statusOf } from "../support/Http.js"
import { servingPort, spawnServer } from "../support/Server.js"

/** Debian's nginx-light (or nginx); NGINX_PATH points elsewhere. */
const nginxPath = process.env.NGINX_PATH ?? "nginx"

const searchLimit = 20

const search = JSON.stringify(searchBodyFor("nästa vecka"))

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** A real server process behind `trustProxy`, stopped with the scope. */
const instance = (databaseUrl: string, trustProxy: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const server = spawnServer({
        APP_ENV: "development",
        PORT: "0",
        DATABASE_URL: databaseUrl,
        BOOKING_OPTION_SIGNING_KEYS: "proxy:proxy-secret-0123456789abcdef0123456789",
        RATE_LIMIT_SEARCH_PER_MINUTE: String(searchLimit),
        TRUST_PROXY: trustProxy,
        HTTP_MAX_CONNECTIONS_PER_ADDRESS: "2",
        LOG_FORMAT: "json"
      })
      return { port: await servingPort(server), server }
    }),
    ({ server }) =>
      Effect.promise(async () => {
        server.child.kill("SIGTERM")
        await server.exited
      })
  )

/**
 * nginx in the foreground, one `server` per upstream, each appending the client's address to
 * X-Forwarded-For as most deployments do ($proxy_add_x_forwarded_for) and connecting to the
 * upstream from its own loopback address (`proxy_bind`), as a proxy on another host would.
 */
const nginx = (routes: ReadonlyArray<{ readonly upstream: number; readonly bind: string }>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const prefix = mkdtempSync(join(tmpdir(), "booking-nginx-"))
      const ports = await Promise.all(routes.map(freePort))
      const servers = routes.map(
        ({ upstream, bind }, index) => `
    server {
      listen 127.0.0.1:${ports[index]};
      location / {
        proxy_pass http://127.0.0.1:${upstream};
        proxy_bind ${bind};
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      }
    }`
      )
      writeFileSync(
        join(prefix, "nginx.conf"),
        `daemon off;
master_process off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
${servers.join("\n")}
}
`
      )
      const child: ChildProcess = spawn(nginxPath, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", "stderr"], {
        stdio: ["ignore", "ignore", "pipe"]
      })
      let stderr = ""
      child.stderr?.on("data", (chunk) => {
        stderr += chunk
      })
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      child.once("error", (error) => {
        stderr += String(error)
      })
      await vi.waitFor(
        async () => {
          expect(child.exitCode, `nginx exited: ${stderr}`).toBeNull()
          await Promise.all(ports.map((port) => rawConnect(port).then(({ socket }) => socket.destroy())))
        },
        { timeout: 10_000, interval: 50 }
      )
      return { ports, child, exited, prefix }
    }),
    ({ child, exited, prefix }) =>
      Effect.promise(async () => {
        child.kill("SIGTERM")
        await exited
        rmSync(prefix, { recursive: true, force: true })
      })
  )

/** A search sent to `port` from the client address `from`, with the X-Forwarded-For it chose. */
const searchVia = (port: number, from: string, forwardedFor?: string) =>
  new Promise<number>((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        localAddress: from,
        method: "POST",
        path: "/api/public/booking-options",
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(search),
          ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor })
        }
      },
      (response) => {
        response.resume()
        response.on("end", () => resolve(response.statusCode ?? 0))
      }
    )
    outgoing.on("error", reject)
    outgoing.end(search)
  })

const count = (statuses: ReadonlyArray<number>) =>
  statuses.reduce<Record<string, number>>((counts, status) => {
    counts[status] = (counts[status] ?? 0) + 1
    return counts
  }, {})

describe("behind a real nginx that appends to X-Forwarded-For", () => {
  it.live(
    "a client rotating its X-Forwarded-For is limited as one address; the proxy's connections have no per-address share",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        const [named, counted] = yield* Effect.all([instance(url, "127.0.0.5"), instance(url, "1")], {
          concurrency: 2
        })
        const proxy = yield* nginx([
          { upstream: named.port, bind: "127.0.0.5" },
          { upstream: counted.port, bind: "127.0.0.6" }
        ])
        const figures: Array<string> = []
        for (const [index, trust] of ["TRUST_PROXY=127.0.0.5", "TRUST_PROXY=1"].entries()) {
          const port = proxy.ports[index]!
          const rotating = yield* Effect.promise(async () => {
            const statuses: Array<number> = []
            for (let n = 1; n <= 100; n++) statuses.push(await searchVia(port, "127.0.0.2", `198.51.100.${n}`))
            return statuses
          })
          expect(count(rotating), trust).toEqual({ 200: searchLimit, 429: 100 - searchLimit })
          figures.push(`${trust}: ${count(rotating)[200]}/100 allowed against a limit of ${searchLimit}`)
          // Another client behind the same proxy has its own budget.
          expect(yield* Effect.promise(() => searchVia(port, "127.0.0.3")), trust).toBe(200)
        }

        // Connections from the trusted proxy's address are many clients: more than an address's share are served.
        const asProxy = yield* Effect.promise(() =>
          Promise.all([1, 2, 3, 4].map(() => rawConnect(named.port, "127.0.0.1", "127.0.0.5")))
        )
        expect(yield* Effect.promise(() => searchVia(proxy.ports[0]!, "127.0.0.4")), "through nginx").toBe(200)
        // An untrusted address gets its share and no more.
        const direct = yield* Effect.promise(() =>
          Promise.all([1, 2, 3].map(() => rawConnect(named.port, "127.0.0.1", "127.0.0.7")))
        )
        yield* Effect.promise(() => direct[2]!.closed)
        expect(statusOf(direct[2]!.received())).toBe(503)
        for (const connection of [...asProxy, ...direct]) connection.socket.destroy()
        console.info(`behind nginx, a client rotating X-Forwarded-For: ${figures.join("; ")}`)
      }).pipe(Effect.scoped),
    120_000
  )
})
