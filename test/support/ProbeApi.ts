import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { Api } from "../../src/Api.js"
import type { AppConfig } from "../../src/AppConfig.js"
import * as Errors from "../../src/Domain/Errors.js"
import { strictInput } from "../../src/Domain/Input.js"
import { Partner } from "../../src/Domain/Partner.js"
import { Postcode } from "../../src/Domain/Supply.js"
import { ContractErrors } from "../../src/Http/ContractErrors.js"
import { ContractErrorsLive } from "../../src/Http/ErrorContract.js"
import { contractLiveFor, GroupsLive, observed } from "../../src/Http.js"
import { Authentication, AuthenticationLive } from "../../src/Partners/Authentication.js"

/** Every domain error class, by the code a probe endpoint fails with. */
export const errorClasses = {
  invalid_request: Errors.InvalidRequest,
  malformed_json: Errors.MalformedJson,
  unauthorized: Errors.Unauthorized,
  not_found: Errors.NotFound,
  method_not_allowed: Errors.MethodNotAllowed,
  idempotency_key_reused: Errors.IdempotencyKeyReused,
  payload_too_large: Errors.PayloadTooLarge,
  unsupported_media_type: Errors.UnsupportedMediaType,
  unsupported_vertical: Errors.UnsupportedVertical,
  unsupported_job_type: Errors.UnsupportedJobType,
  rate_limited: Errors.RateLimited,
  internal_error: Errors.InternalError,
  database_unavailable: Errors.DatabaseUnavailable,
  auth_not_configured: Errors.AuthNotConfigured
} as const

type Code = keyof typeof errorClasses

const EchoPayload = strictInput(
  Schema.Struct({
    name: Schema.String.check(Schema.isMinLength(2)),
    location: Schema.Struct({ postcode: Postcode, city: Schema.optional(Schema.String) })
  })
)

class ProbeGroup extends HttpApiGroup.make("probe")
  .add(HttpApiEndpoint.post("echo", "/probe/echo", { payload: EchoPayload, success: EchoPayload }))
  .add(HttpApiEndpoint.get("defect", "/probe/defect", { success: Schema.Struct({ ok: Schema.Boolean }) }))
  .add(
    HttpApiEndpoint.get("fail", "/probe/fail/:code", {
      params: Schema.Struct({ code: Schema.Literals(Object.keys(errorClasses) as Array<Code>) }),
      success: Schema.Struct({ ok: Schema.Boolean }),
      error: Object.values(errorClasses).map((cls) => Errors.errorBody(cls))
    })
  )
  .add(
    HttpApiEndpoint.get("whoami", "/probe/whoami", {
      success: Schema.Struct({ partner_id: Schema.String, sandbox: Schema.Boolean })
    }).middleware(Authentication)
  ) {}

/** The real Api plus probe endpoints that reach every error path through the real middleware. */
export const ProbeApi = Api.add(ProbeGroup).middleware(ContractErrors)

const ProbeLive = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  handlers
    .handle("echo", ({ payload }) => Effect.succeed(payload))
    .handle("defect", () => Effect.die(new Error("secret internal detail: stack and all")))
    .handle("fail", ({ params }) =>
      Effect.fail(new errorClasses[params.code as Code]({ safe_next_step: "probe" }) as never)
    )
    .handle("whoami", () => Effect.map(Partner, (partner) => ({ partner_id: partner.id, sandbox: partner.sandbox })))
)

/** The real Api plus the probe group, served on `server`: `TestServer({ probe: true })` builds it. */
export const serveProbe = <ROut, E, RIn>(
  server: Layer.Layer<ROut, E, RIn>,
  loops: Layer.Layer<never, unknown, AppConfig | SqlClient.SqlClient>
): Layer.Layer<ROut, unknown, RIn | AppConfig | SqlClient.SqlClient> =>
  // HttpRouter.serve's inference leaves its requirements `any`; everything it needs is provided by TestServer.
  HttpRouter.serve(
    Layer.mergeAll(
      HttpApiBuilder.layer(ProbeApi).pipe(
        Layer.provide([GroupsLive, ProbeLive]),
        Layer.provide(AuthenticationLive),
        Layer.provide(ContractErrorsLive)
      ),
      contractLiveFor(ProbeApi as unknown as typeof Api),
      // A route beside the Api reads its body with the platform's own reader, whatever its type.
      HttpRouter.add("POST", "/probe/raw-text", (request) =>
        Effect.map(Effect.orDie(request.text), (text) => HttpServerResponse.jsonUnsafe({ text }))
      ),
      loops
    ),
    { disableLogger: true, disableListenLog: true, middleware: observed }
  ).pipe(Layer.provideMerge(server)) as never
