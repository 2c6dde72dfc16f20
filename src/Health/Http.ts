import { timingSafeEqual } from "node:crypto"
import { Effect, Layer, Option, Redacted } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { AppConfig } from "../AppConfig.js"
import { NotFound, Unauthorized } from "../Domain/Errors.js"
import { prometheusText } from "../Http/Observability.js"
import { tokenDigest } from "../Partners/Partners.js"
import { NotReady } from "./Api.js"
import { Readiness } from "./Readiness.js"

export const HealthLive = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.gen(function* () {
    const readiness = yield* Readiness
    const config = yield* AppConfig
    const metricsDigest = Option.map(config.metricsToken, (token) => tokenDigest(Redacted.value(token)))

    /**
     * With METRICS_TOKEN, /metrics answers only to that bearer token; without it, development
     * serves it openly (loopback by default) and production not at all.
     */
    const metricsAllowed = Effect.gen(function* () {
      if (Option.isNone(metricsDigest)) {
        if (config.appEnv === "development") return
        return yield* new NotFound({ issues: ["path: /metrics is not served: METRICS_TOKEN is not set"] })
      }
      const request = yield* HttpServerRequest.HttpServerRequest
      const presented = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? ""
      if (!timingSafeEqual(tokenDigest(presented), metricsDigest.value)) {
        return yield* new Unauthorized({ safe_next_step: "Send 'Authorization: Bearer <METRICS_TOKEN>'." })
      }
    })
    return handlers
      .handle("healthz", () => Effect.succeed({ ok: true as const }))
      .handle("readyz", () =>
        Effect.flatMap(readiness.check, ({ problems, warnings }) =>
          problems.length > 0
            ? Effect.fail(
                new NotReady({
                  issues: problems,
                  safe_next_step: "Send traffic to another instance; the operator must fix the issues listed."
                })
              )
            : Effect.succeed({ ok: true as const, database: "up" as const, warnings })
        )
      )
      .handle("metrics", () =>
        metricsAllowed.pipe(
          Effect.andThen(prometheusText),
          Effect.map((text) =>
            HttpServerResponse.text(text, { contentType: "text/plain; version=0.0.4; charset=utf-8" })
          )
        )
      )
  })
).pipe(Layer.provide(Readiness.Default))
