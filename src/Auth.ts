import { timingSafeEqual } from "node:crypto"
import { HttpApiMiddleware, HttpApiSecurity, HttpServerRequest } from "@effect/platform"
import { Duration, Effect, Layer, Redacted, Ref, Schedule, Schema } from "effect"
import { AppConfig } from "./AppConfig.js"
import { AuthNotConfigured, errorBody, Unauthorized } from "./Domain/Errors.js"
import { Partner } from "./Domain/Partner.js"
import { logFailureWarning } from "./Failure.js"
import { Partners, type TokenEntry, tokenDigest, tokenPattern } from "./Partners.js"

const security = {
  bearer: HttpApiSecurity.bearer,
  serviceToken: HttpApiSecurity.apiKey({ key: "X-Service-Requests-Token", in: "header" })
}

/** Confirm and status: a production server with no token configured answers 401 (spec section 5). */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Booking/Authentication", {
  failure: errorBody(Unauthorized),
  provides: Partner,
  security
}) {}

/** Request creation: a production server with no token configured answers 503 (spec sections 4.5 and 5). */
export class RequestAuthentication extends HttpApiMiddleware.Tag<RequestAuthentication>()(
  "Booking/RequestAuthentication",
  {
    failure: Schema.Union(errorBody(Unauthorized), errorBody(AuthNotConfigured)),
    provides: Partner,
    security
  }
) {}

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
    Effect.catchAllCause((cause) => logFailureWarning("partner tokens could not be refreshed", cause)),
    Effect.repeat(Schedule.spaced(tokenRefreshInterval)),
    Effect.forkScoped
  )
  const used = new Set<string>()
  yield* Effect.suspend(() => {
    const prefixes = [...used]
    used.clear()
    return partners.markUsed(prefixes)
  }).pipe(
    Effect.catchAllCause((cause) => logFailureWarning("token last-use could not be recorded", cause)),
    Effect.repeat(Schedule.spaced(Duration.seconds(30))),
    Effect.forkScoped
  )

  return <E>(token: Redacted.Redacted<string>, unconfigured: E) =>
    Effect.flatMap(Ref.get(live), (issued): Effect.Effect<Partner["Type"], Unauthorized | E> => {
      if (configured.length === 0 && issued.size === 0) {
        return config.appEnv === "development" ? Effect.succeed(anonymousPartner) : Effect.fail(unconfigured)
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

/**
 * One token store (and refresh fibre) for the Api's middlewares and the MCP endpoint. `partner`
 * answers an unconfigured production server as confirm and status do (401), `requester` as
 * request creation does (503).
 */
export class Authenticator extends Effect.Service<Authenticator>()("Booking/Authenticator", {
  scoped: Effect.map(makeAuthenticate, (authenticate) => ({
    partner: (token: Redacted.Redacted<string>) => authenticate(token, unauthorized),
    requester: (token: Redacted.Redacted<string>) => authenticate(token, notConfigured)
  })),
  dependencies: [Partners.Default]
}) {}

const bearerPattern = /^bearer +(\S.*)$/i

/**
 * The platform's bearer security takes whatever follows the first seven characters of the
 * header, so `Digest <token>` would pass; only the Bearer scheme (in any case) may.
 */
export const bearerTokenOf = (headers: Readonly<Record<string, string | undefined>>) =>
  Redacted.make(bearerPattern.exec(headers.authorization ?? "")?.[1] ?? "")

const bearerToken = Effect.map(HttpServerRequest.HttpServerRequest, (request) => bearerTokenOf(request.headers))

const middlewareFor = <E>(authenticate: (token: Redacted.Redacted<string>) => Effect.Effect<Partner["Type"], E>) => ({
  bearer: () => Effect.flatMap(bearerToken, authenticate),
  serviceToken: authenticate
})

export const AuthenticationLive = Layer.unwrapEffect(
  Effect.map(Authenticator, (authenticator) =>
    Layer.mergeAll(
      Layer.succeed(Authentication, middlewareFor(authenticator.partner)),
      Layer.succeed(RequestAuthentication, middlewareFor(authenticator.requester))
    )
  )
).pipe(Layer.provide(Authenticator.Default))
