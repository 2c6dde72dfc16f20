import { timingSafeEqual } from "node:crypto"
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Duration, Effect, Layer, Redacted, Ref, Schedule, Schema } from "effect"
import { AppConfig } from "./AppConfig.js"
import { AuthNotConfigured, errorBody, Unauthorized } from "./Domain/Errors.js"
import { Partner } from "./Domain/Partner.js"
import { Partners, type TokenEntry, tokenDigest, tokenPattern } from "./Partners.js"

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Booking/Authentication", {
  failure: Schema.Union(errorBody(Unauthorized), errorBody(AuthNotConfigured)),
  provides: Partner,
  security: {
    bearer: HttpApiSecurity.bearer,
    serviceToken: HttpApiSecurity.apiKey({ key: "X-Service-Requests-Token", in: "header" })
  }
}) {}

export const anonymousPartner = { id: "anonymous", name: "Anonymous (development, no token configured)" }

/** Revocation reaches every instance within this long. */
export const tokenRefreshInterval = Duration.seconds(2)

const unauthorized = new Unauthorized({
  safe_next_step:
    "Send the partner API token as 'Authorization: Bearer <token>' or 'X-Service-Requests-Token: <token>'."
})

const notConfigured = new AuthNotConfigured({
  safe_next_step:
    "The service has no API token configured; the operator must set SERVICE_REQUESTS_API_TOKENS or issue a partner token (npm run partner)."
})

/**
 * Tokens from SERVICE_REQUESTS_API_TOKENS and partner tokens issued from the CLI (kept as
 * SHA-256 only). Every comparison is of equal-length digests with timingSafeEqual, against
 * every configured token, so neither a match nor its position leaks through timing. Partner
 * tokens are re-read every couple of seconds, which is how a revocation reaches all instances.
 */
export const makeAuthenticate = Effect.gen(function* () {
  const config = yield* AppConfig
  const partners = yield* Partners
  const configured = config.apiTokens.map((token) => {
    const digest = tokenDigest(Redacted.value(token))
    return { digest, partner: { id: `token-${digest.toString("hex").slice(0, 12)}`, name: "Configured API token" } }
  })
  const live = yield* Ref.make(new Map<string, TokenEntry>())
  const refresh = Effect.flatMap(partners.liveTokens, (entries) =>
    Ref.set(live, new Map(entries.map((entry) => [entry.prefix, entry])))
  )
  yield* refresh.pipe(Effect.orDie)
  yield* refresh.pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("partner tokens could not be refreshed", cause)),
    Effect.repeat(Schedule.spaced(tokenRefreshInterval)),
    Effect.forkScoped
  )
  const used = new Set<string>()
  yield* Effect.suspend(() => {
    const prefixes = [...used]
    used.clear()
    return partners.markUsed(prefixes)
  }).pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("token last-use could not be recorded", cause)),
    Effect.repeat(Schedule.spaced(Duration.seconds(30))),
    Effect.forkScoped
  )

  return (token: Redacted.Redacted<string>) =>
    Effect.flatMap(Ref.get(live), (issued): Effect.Effect<Partner["Type"], Unauthorized | AuthNotConfigured> => {
      if (configured.length === 0 && issued.size === 0) {
        return config.appEnv === "development" ? Effect.succeed(anonymousPartner) : Effect.fail(notConfigured)
      }
      const value = Redacted.value(token)
      const presented = tokenDigest(value)
      let match: { readonly id: string; readonly name: string } | undefined
      for (const entry of configured) {
        if (timingSafeEqual(entry.digest, presented) && match === undefined) match = entry.partner
      }
      const prefix = tokenPattern.exec(value)?.[1]
      const entry = prefix === undefined ? undefined : issued.get(prefix)
      if (entry !== undefined && timingSafeEqual(entry.digest, presented) && match === undefined) {
        match = { id: entry.partnerId, name: entry.partnerName }
        used.add(entry.prefix)
      }
      return match === undefined || value.length === 0 ? Effect.fail(unauthorized) : Effect.succeed(match)
    })
})

export const AuthenticationLive = Layer.scoped(
  Authentication,
  Effect.map(makeAuthenticate, (authenticate) => ({ bearer: authenticate, serviceToken: authenticate }))
).pipe(Layer.provide(Partners.Default))
