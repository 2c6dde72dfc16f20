import { createHash, timingSafeEqual } from "node:crypto"
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Effect, Layer, Redacted, Schema } from "effect"
import { AppConfig } from "./AppConfig.js"
import { AuthNotConfigured, errorBody, Unauthorized } from "./Domain/Errors.js"
import { Partner } from "./Domain/Partner.js"

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Booking/Authentication", {
  failure: Schema.Union(errorBody(Unauthorized), errorBody(AuthNotConfigured)),
  provides: Partner,
  security: {
    bearer: HttpApiSecurity.bearer,
    serviceToken: HttpApiSecurity.apiKey({ key: "X-Service-Requests-Token", in: "header" })
  }
}) {}

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest()

export const anonymousPartner = { id: "anonymous", name: "Anonymous (development, no token configured)" }

const unauthorized = new Unauthorized({
  safe_next_step:
    "Send the partner API token as 'Authorization: Bearer <token>' or 'X-Service-Requests-Token: <token>'."
})

const notConfigured = new AuthNotConfigured({
  safe_next_step: "The service has no API token configured; the operator must set SERVICE_REQUESTS_API_TOKENS."
})

/**
 * Tokens are compared as SHA-256 digests with timingSafeEqual against every configured token,
 * so neither the length nor the position of a match leaks through timing.
 */
export const makeAuthenticate = Effect.gen(function* () {
  const config = yield* AppConfig
  const known = config.apiTokens.map((token) => {
    const hash = digest(Redacted.value(token))
    return { hash, partner: { id: `token-${hash.toString("hex").slice(0, 12)}`, name: "Configured API token" } }
  })
  return (token: Redacted.Redacted<string>) => {
    if (known.length === 0) {
      return config.appEnv === "development" ? Effect.succeed(anonymousPartner) : Effect.fail(notConfigured)
    }
    const presented = digest(Redacted.value(token))
    let match: (typeof known)[number]["partner"] | undefined
    for (const entry of known) {
      if (timingSafeEqual(entry.hash, presented) && match === undefined) match = entry.partner
    }
    return match === undefined || Redacted.value(token).length === 0 ? Effect.fail(unauthorized) : Effect.succeed(match)
  }
})

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(makeAuthenticate, (authenticate) => ({ bearer: authenticate, serviceToken: authenticate }))
)
