import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Duration, Effect } from "effect"
import { Api } from "../Api.js"
import { DatabaseUnavailable } from "../Domain/Errors.js"
import { prometheusText } from "../Observability.js"

export const HealthLive = HttpApiBuilder.group(Api, "health", (handlers) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const ping = sql`SELECT 1`.pipe(
      // The answer does not wait for the abandoned query to be cancelled.
      Effect.disconnect,
      Effect.timeoutFail({ duration: Duration.seconds(2), onTimeout: () => "timeout" as const }),
      Effect.as({ ok: true as const, database: "up" as const }),
      Effect.catchAll((cause) =>
        Effect.logWarning("readiness check failed", cause).pipe(
          Effect.zipRight(new DatabaseUnavailable({ safe_next_step: "The database does not answer; retry later." }))
        )
      )
    )
    return handlers
      .handle("healthz", () => Effect.succeed({ ok: true as const }))
      .handle("readyz", () => ping)
      .handle("metrics", () =>
        Effect.map(prometheusText, (text) =>
          HttpServerResponse.text(text, { contentType: "text/plain; version=0.0.4; charset=utf-8" })
        )
      )
  })
)
