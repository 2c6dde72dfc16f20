import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { prometheusText } from "../Observability.js"
import { NotReady } from "./Api.js"
import { Readiness } from "./Readiness.js"

export const HealthLive = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.gen(function* () {
    const readiness = yield* Readiness
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
        Effect.map(prometheusText, (text) =>
          HttpServerResponse.text(text, { contentType: "text/plain; version=0.0.4; charset=utf-8" })
        )
      )
  })
)
