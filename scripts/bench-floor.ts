/**
 * The floor under every request of the service: what the platform alone costs, measured beside
 * bare `node:http` in one invocation. Four servers, no database, each answering the same
 * precomputed 10 KB JSON:
 *
 *   bare GET        node:http
 *   bare POST       node:http, the body read and JSON.parse'd
 *   HttpApi GET     an Effect HttpApi endpoint (HttpApiBuilder on NodeHttpServer), no middleware
 *   HttpApi POST    the same with the search's request schema as its payload (decoded, then ignored)
 *
 * Each runs on the Node production runs and is driven by autocannon (50 connections, DURATION
 * seconds after a warm-up) with the search bench's bodies; the server's CPU per request (user +
 * system, /proc) is printed.
 *
 *   npx tsx scripts/bench-floor.ts          (DURATION, default 8)
 *   npx tsx scripts/bench-floor.ts serve <bare|httpapi>    one server on PORT (used by the above)
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:http"
import { join } from "node:path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import autocannon from "autocannon"
import { Effect, Layer, References, Schema } from "effect"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { freePort } from "../src/Database/EmbeddedPostgres.js"
import { BookingSearchRequest } from "../src/Domain/Search.js"
import { cpuSeconds } from "./processFigures.js"
import { productionNode } from "./productionCommand.js"
import { searchBodies } from "./searchBodies.js"

const answer = JSON.stringify({ ok: true, pad: "x".repeat(10_000) })

const serveBare = (port: number) =>
  createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      if (chunks.length > 0) JSON.parse(Buffer.concat(chunks).toString("utf8"))
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) })
      response.end(answer)
    })
  }).listen(port, "127.0.0.1", () => console.log("serving"))

class Floor extends HttpApiGroup.make("floor")
  .add(HttpApiEndpoint.get("get", "/get", { success: Schema.Unknown }))
  .add(HttpApiEndpoint.post("post", "/post", { payload: BookingSearchRequest, success: Schema.Unknown })) {}
class FloorApi extends HttpApi.make("floor").add(Floor) {}

const serveHttpApi = (port: number) => {
  const bytes = new TextEncoder().encode(answer)
  const respond = Effect.succeed(HttpServerResponse.uint8Array(bytes, { contentType: "application/json" }))
  const FloorLive = HttpApiBuilder.group(FloorApi, "floor", (handlers) =>
    handlers.handle("get", () => respond).handle("post", () => respond)
  )
  const server = HttpRouter.serve(HttpApiBuilder.layer(FloorApi).pipe(Layer.provide(FloorLive)), {
    disableLogger: true,
    disableListenLog: true
  }).pipe(
    Layer.provide(Layer.succeed(HttpMiddleware.TracerDisabledWhen, () => true)),
    Layer.provide(Layer.succeed(References.TracerEnabled, false)),
    Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" })),
    Layer.tap(() => Effect.sync(() => console.log("serving")))
  )
  NodeRuntime.runMain(Layer.launch(server))
}

/** The servers run on the Node production runs, as the other benchmarks' do (SERVER_NODE picks another). */
const serverNode = process.env.SERVER_NODE ?? productionNode(join(import.meta.dirname, ".."))

const start = (kind: string, port: number) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(serverNode, ["--import", "tsx", import.meta.filename, "serve", kind], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "pipe", "inherit"]
    })
    child.stdout?.once("data", () => {
      child.stdout?.resume()
      resolve(child)
    })
    child.on("exit", (code) => reject(new Error(`${kind} exited with ${code}`)))
  })

const measure = async (label: string, kind: string, path: string, method: "GET" | "POST") => {
  const port = await freePort()
  const child = await start(kind, port)
  const bodies = searchBodies()
  let next = 0
  const drive = (run: { amount: number } | { duration: number }) =>
    autocannon({
      url: `http://127.0.0.1:${port}${path}`,
      connections: 50,
      ...run,
      requests: [
        {
          method,
          headers: { "content-type": "application/json" },
          setupRequest: (request) =>
            method === "POST" ? { ...request, body: bodies[next++ % bodies.length] } : request
        }
      ]
    })
  await drive({ amount: 3000 })
  const before = cpuSeconds(child.pid!)
  const result = await drive({ duration: Number(process.env.DURATION ?? 8) })
  const perRequest = (cpuSeconds(child.pid!) - before) / Math.max(1, result.requests.total)
  const statuses = Object.keys(result.statusCodeStats ?? {}).join(",")
  console.log(
    `${label.padEnd(14)} ${result.requests.average.toFixed(0).padStart(6)} req/s  ${(perRequest * 1e6).toFixed(0).padStart(4)} µs CPU per request  (statuses ${statuses})`
  )
  child.kill("SIGTERM")
  await new Promise((resolve) => child.on("exit", resolve))
}

if (process.argv[2] === "serve") {
  const port = Number(process.env.PORT)
  if (process.argv[3] === "bare") serveBare(port)
  else serveHttpApi(port)
} else {
  await measure("bare GET", "bare", "/get", "GET")
  await measure("bare POST", "bare", "/post", "POST")
  await measure("HttpApi GET", "httpapi", "/get", "GET")
  await measure("HttpApi POST", "httpapi", "/post", "POST")
}
