import { timingSafeEqual } from "node:crypto"
import { Clock, Context, Duration, Effect, Layer, Option, Redacted, Ref, Schedule } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { AppConfig } from "../AppConfig.js"
import { AuthNotConfigured, Unauthorized } from "../Domain/Errors.js"
import { anonymousPartnerId, Partner } from "../Domain/Partner.js"
import { logFailureWarning } from "../Shared/FailureSummary.js"
import { RequestSpan, TracingOn } from "../Tracing/Tracing.js"
import { Authentication, RequestAuthentication } from "./AuthApi.js"
import { Partners, tokenDigest, tokenPattern } from "./Partners.js"

/** The tags live in AuthApi.ts (no server code); re-exported so existing imports keep working. */
export { Authentication, RequestAuthentication }

export const anonymousPartner = {
  id: anonymousPartnerId,
  name: "Anonymous (development, AUTH_MODE=open)",
  sandbox: false
}

/** A revocation reaches every instance within this long; a new token works at once (see makeAuthenticate). */
export const tokenRefreshInterval = Duration.seconds(2)

/** At most this many database look-ups of unknown token prefixes per second and instance. */
export const tokenLookupsPerSecond = 20

export type AuthMode = "open" | "tokens"

const unauthorized = new Unauthorized({
  safe_next_step:
    "Send the partner API token as 'Authorization: Bearer <token>' or 'X-Service-Requests-Token: <token>'."
})

const notConfigured = new AuthNotConfigured({
  safe_next_step:
    "The service has no API token configured; the operator must set SERVICE_REQUESTS_API_TOKENS or issue a partner token (npm run partner)."
})

type Identity = Partner["Service"]

const configuredPartner = (token: Redacted.Redacted<string>, sandbox: boolean) => {
  const digest = tokenDigest(Redacted.value(token))
  const hex = digest.toString("hex").slice(0, 12)
  const partner: Identity = sandbox
    ? { id: `sandbox-${hex}`, name: "Configured sandbox API token", sandbox: true }
    : { id: `token-${hex}`, name: "Configured API token", sandbox: false }
  return { digest, partner }
}

/**
 * Tokens from SERVICE_REQUESTS_API_TOKENS and SANDBOX_API_TOKENS, and partner tokens issued from
 * the CLI (kept as SHA-256 only). Every comparison is of equal-length digests with timingSafeEqual,
 * against every configured token, so neither a match nor its position leaks through timing.
 *
 * Partner tokens are re-read every couple of seconds, which is how a revocation reaches every
 * instance. A partner token not known yet is looked up by its prefix before it is refused, so a
 * token issued a moment ago (by the CLI, another process) works at once; a prefix found missing is
 * not looked up again within the refresh interval, and look-ups are capped per second, so
 * invented tokens cannot turn into a query each.
 *
 * The mode is decided once, at start: `open` lets a request that sends no token through as the
 * anonymous partner (development only); `tokens` requires one. A token that is sent is checked in
 * both modes, so a revoked or unknown token is refused, never treated as no token.
 */
export const makeAuthenticate = Effect.gen(function* () {
  const config = yield* AppConfig
  const partners = yield* Partners
  const configured = [
    ...config.apiTokens.map((token) => configuredPartner(token, false)),
    ...config.sandboxApiTokens.map((token) => configuredPartner(token, true))
  ]
  const issued = yield* makeIssuedTokens("partner", partners, tokenPattern)
  const mode: AuthMode = Option.isSome(config.authMode)
    ? config.authMode.value
    : config.appEnv === "development" && configured.length === 0 && !(yield* partners.anyTokenEver.pipe(Effect.orDie))
      ? "open"
      : "tokens"
  yield* Effect.logInfo(
    mode === "open"
      ? `authentication: open (${Option.isSome(config.authMode) ? "AUTH_MODE=open" : "development, no token was ever configured"}): a request without a token passes as "anonymous"; a token that is sent is always checked`
      : "authentication: tokens: confirm, status and request creation need a partner token"
  )

  const issuedMatch = (value: string, presented: Uint8Array) =>
    Effect.map(issued.match(value, presented), (entry) =>
      entry === undefined
        ? undefined
        : ({ id: entry.partnerId, name: entry.partnerName, sandbox: entry.sandbox } satisfies Identity)
    )

  const nothingConfigured = Effect.map(issued.isEmpty, (empty) => configured.length === 0 && empty)

  // Traced, the partner is named on the request's span (its id: no person's data).
  const named: <E2, R>(effect: Effect.Effect<Identity, E2, R>) => Effect.Effect<Identity, E2, R> = (yield* TracingOn)
    ? (effect) =>
        Effect.tap(effect, (partner) =>
          Effect.withFiber((fiber) => {
            fiber.getRef(RequestSpan)?.attribute("partner.id", partner.id)
            return Effect.void
          })
        )
    : (effect) => effect

  /** `token` is none when the request sent no token at all. */
  const authenticate = <E>(token: Option.Option<string>, unconfigured: E) =>
    Effect.gen(function* () {
      if (Option.isNone(token)) {
        if (mode === "open") return anonymousPartner
        return yield* Effect.fail((yield* nothingConfigured) ? unconfigured : unauthorized)
      }
      const presented = tokenDigest(token.value)
      let match: Identity | undefined
      for (const entry of configured) {
        if (timingSafeEqual(entry.digest, presented) && match === undefined) match = entry.partner
      }
      match ??= yield* issuedMatch(token.value, presented)
      if (match !== undefined) return match
      return yield* Effect.fail(mode === "tokens" && (yield* nothingConfigured) ? unconfigured : unauthorized)
    }).pipe(named)

  return {
    mode,
    authenticate,
    tokenUpkeep: issued.tokenUpkeep
  } as const
})

/** What a token store reads: its live tokens, one by prefix, and when tokens were last used. */
export interface TokenStore<E extends { readonly prefix: string; readonly digest: Uint8Array }> {
  readonly liveTokens: Effect.Effect<ReadonlyArray<E>, unknown>
  readonly liveToken: (prefix: string) => Effect.Effect<Option.Option<E>, unknown>
  readonly markUsed: (prefixes: ReadonlyArray<string>) => Effect.Effect<unknown, unknown>
}

/**
 * Issued tokens of one kind (partner or provider), with the guarantees both share: compared as
 * SHA-256 digests in constant time, re-read every `tokenRefreshInterval` so a revocation reaches
 * every instance, a token issued a moment ago looked up by its prefix, and look-ups of unknown
 * prefixes bounded per prefix and per second.
 */
export const makeIssuedTokens = <E extends { readonly prefix: string; readonly digest: Uint8Array }>(
  kind: "partner" | "provider",
  store: TokenStore<E>,
  pattern: RegExp
) =>
  Effect.gen(function* () {
    const live = yield* Ref.make(new Map<string, E>())
    const missed = new Map<string, number>()
    const refreshMs = Duration.toMillis(tokenRefreshInterval)
    const refresh = Effect.flatMap(store.liveTokens, (entries) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        for (const [prefix, at] of missed) if (now - at >= refreshMs) missed.delete(prefix)
        return Ref.set(live, new Map(entries.map((entry) => [entry.prefix, entry])))
      })
    )
    yield* refresh.pipe(Effect.orDie)

    const used = new Set<string>()
    const recordUse = Effect.suspend(() => {
      const prefixes = [...used]
      used.clear()
      return store.markUsed(prefixes)
    })

    let window = { start: Number.NEGATIVE_INFINITY, lookups: 0 }
    /** The live token with this prefix from the database, within the per-prefix and per-second bounds. */
    const lookUp = (prefix: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const missedAt = missed.get(prefix)
        if (missedAt !== undefined && now - missedAt < refreshMs) return undefined
        if (now - window.start >= 1000) window = { start: now, lookups: 0 }
        if (window.lookups >= tokenLookupsPerSecond) return undefined
        window.lookups += 1
        const found = yield* store
          .liveToken(prefix)
          .pipe(
            Effect.catchCause((cause) =>
              Effect.as(logFailureWarning(`a ${kind} token could not be looked up`, cause), Option.none<E>())
            )
          )
        if (Option.isSome(found)) {
          yield* Ref.update(live, (entries) => new Map(entries).set(prefix, found.value))
        } else {
          missed.set(prefix, now)
        }
        return Option.getOrUndefined(found)
      })

    /** The issued token `value` is, given its digest; undefined for any other. */
    const match = (value: string, presented: Uint8Array) =>
      Effect.gen(function* () {
        const prefix = pattern.exec(value)?.[1]
        if (prefix === undefined) return undefined
        const entry = (yield* Ref.get(live)).get(prefix) ?? (yield* lookUp(prefix))
        if (entry === undefined || !timingSafeEqual(entry.digest, presented)) return undefined
        used.add(entry.prefix)
        return entry
      })

    const tokenUpkeep: TokenUpkeep = {
      refresh: refresh.pipe(
        Effect.catchCause((cause) => logFailureWarning(`${kind} tokens could not be refreshed`, cause))
      ),
      recordUse: recordUse.pipe(
        Effect.catchCause((cause) => logFailureWarning(`${kind} token last-use could not be recorded`, cause))
      )
    }

    return { match, isEmpty: Effect.map(Ref.get(live), (entries) => entries.size === 0), tokenUpkeep } as const
  })

/** What a token store does in the background: re-read the live tokens, and write when each was last used. */
export interface TokenUpkeep {
  readonly refresh: Effect.Effect<void>
  readonly recordUse: Effect.Effect<void>
}

/**
 * A token store's loops: the live tokens re-read every `tokenRefreshInterval` (how a revocation
 * reaches every instance), the last use written every 30 seconds. They run in the caller's scope.
 */
export const keepTokensFresh = (upkeep: TokenUpkeep) =>
  Effect.all(
    [
      Effect.forkScoped(Effect.repeat(upkeep.refresh, Schedule.spaced(tokenRefreshInterval))),
      Effect.forkScoped(Effect.repeat(upkeep.recordUse, Schedule.spaced(Duration.seconds(30))))
    ],
    { discard: true }
  )

const bearerPattern = /^bearer +(\S.*)$/i

/**
 * The token the request sends, if any. The platform's bearer security takes whatever follows the
 * first seven characters of the header, so `Digest <token>` would pass; only the Bearer scheme
 * (in any case) may. An Authorization header of another scheme is a token that fails, not none.
 */
const presentedTokens = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const authorization = request.headers.authorization
  const serviceToken = request.headers["x-service-requests-token"]
  return {
    bearer: authorization === undefined ? Option.none() : Option.some(bearerPattern.exec(authorization)?.[1] ?? ""),
    serviceToken: Option.fromNullishOr(serviceToken)
  }
})

/** The bearer token of an `Authorization` header (Bearer scheme only), empty when there is none. */
export const bearerTokenOf = (headers: Readonly<Record<string, string | undefined>>) =>
  Redacted.make(bearerPattern.exec(headers.authorization ?? "")?.[1] ?? "")

const presented = (token: Redacted.Redacted<string>) => {
  const value = Redacted.value(token)
  return value === "" ? Option.none<string>() : Option.some(value)
}

/**
 * One token store for the Api's middlewares and the MCP endpoint, kept fresh by
 * PartnerTokenRefreshLive. `partner` answers an unconfigured production server as confirm and status do (401), `requester` as
 * request creation does (503).
 */
export class Authenticator extends Context.Service<Authenticator>()("Booking/Authenticator", {
  make: Effect.map(makeAuthenticate, ({ mode, authenticate, tokenUpkeep }) => ({
    mode,
    authenticate,
    tokenUpkeep,
    partner: (token: Redacted.Redacted<string>) => authenticate(presented(token), unauthorized),
    requester: (token: Redacted.Redacted<string>) => authenticate(presented(token), notConfigured),
    /**
     * The caller where a token is optional (search): none when the request sends no token, or when
     * no token is configured at all (as MCP treats it), else the token's partner. A token that is
     * sent while tokens exist is checked, so a wrong one is 401, never "none".
     */
    optionalCaller: (headers: Readonly<Record<string, string | undefined>>) => {
      const { authorization, "x-service-requests-token": serviceToken } = headers
      if (authorization === undefined && serviceToken === undefined) return Effect.succeed(undefined)
      const token = authorization === undefined ? (serviceToken ?? "") : (bearerPattern.exec(authorization)?.[1] ?? "")
      return authenticate(Option.some(token), notConfigured).pipe(
        Effect.catchTag("auth_not_configured", () => Effect.succeed(undefined))
      )
    }
  }))
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide([Partners.Default]))
}

/**
 * The platform tries the bearer scheme, then the header scheme; each reads both headers, so a
 * request with neither header is one without a token, whichever scheme is asked first.
 */
const middlewareFor = <E>({ authenticate }: Authenticator["Service"], unconfigured: E) => {
  const check = (pick: "bearer" | "serviceToken") =>
    Effect.flatMap(presentedTokens, (tokens) => {
      const chosen = tokens[pick]
      const other = tokens[pick === "bearer" ? "serviceToken" : "bearer"]
      return authenticate(Option.isSome(chosen) ? chosen : other, unconfigured)
    })
  const provided =
    (pick: "bearer" | "serviceToken") =>
    <A, E2, R>(effect: Effect.Effect<A, E2, R>) =>
      Effect.flatMap(check(pick), (partner) => Effect.provideService(effect, Partner, partner))
  return { bearer: provided("bearer"), serviceToken: provided("serviceToken") }
}

export const AuthenticationLive = Layer.unwrap(
  Effect.map(Authenticator, (authenticator) =>
    Layer.mergeAll(
      Layer.succeed(Authentication, middlewareFor(authenticator, unauthorized)),
      Layer.succeed(RequestAuthentication, middlewareFor(authenticator, notConfigured))
    )
  )
).pipe(Layer.provide(Authenticator.Default))

/** The partner token store's loops (keepTokensFresh), for as long as the server runs. */
export const PartnerTokenRefreshLive = Layer.effectDiscard(
  Effect.flatMap(Authenticator, (authenticator) => keepTokensFresh(authenticator.tokenUpkeep))
).pipe(Layer.provide(Authenticator.Default))
