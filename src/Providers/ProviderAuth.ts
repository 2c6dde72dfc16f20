import { timingSafeEqual } from "node:crypto"
import { Clock, Context, Duration, Effect, Layer, Redacted, Ref } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { Unauthorized } from "../Domain/Errors.js"
import { AuthenticatedProvider } from "../Domain/Provider.js"
import { logFailureWarning } from "../Http/FailureSummary.js"
import {
  bearerTokenOf,
  keepTokensFresh,
  type TokenUpkeep,
  tokenLookupsPerSecond,
  tokenRefreshInterval
} from "../Partners/Authentication.js"
import { tokenDigest } from "../Partners/Partners.js"
import { ProviderAuthentication } from "./Api.js"
import { type ProviderTokenEntry, ProviderTokens, providerTokenPattern } from "./ProviderTokens.js"

const unauthorized = new Unauthorized({
  safe_next_step:
    "Send a provider token as 'Authorization: Bearer <token>' (the operator issues one with npm run provider -- token:issue <provider-id>). Partner tokens do not reach the provider API."
})

/**
 * Provider tokens, with the partner tokens' guarantees (Auth.ts): compared as SHA-256 digests in
 * constant time, re-read every couple of seconds so a revocation reaches every instance, a token
 * issued a moment ago looked up by its prefix, and look-ups of unknown prefixes bounded.
 */
const makeProviderAuthenticate = Effect.gen(function* () {
  const tokens = yield* ProviderTokens
  const live = yield* Ref.make(new Map<string, ProviderTokenEntry>())
  const missed = new Map<string, number>()
  const refreshMs = Duration.toMillis(tokenRefreshInterval)
  const refresh = Effect.flatMap(tokens.liveTokens, (entries) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      for (const [prefix, at] of missed) if (now - at >= refreshMs) missed.delete(prefix)
      return Ref.set(live, new Map(entries.map((entry) => [entry.prefix, entry])))
    })
  )
  yield* refresh.pipe(Effect.orDie)
  const used = new Set<string>()
  const tokenUpkeep: TokenUpkeep = {
    refresh: refresh.pipe(
      Effect.catchCause((cause) => logFailureWarning("provider tokens could not be refreshed", cause))
    ),
    recordUse: Effect.suspend(() => {
      const prefixes = [...used]
      used.clear()
      return tokens.markUsed(prefixes)
    }).pipe(Effect.catchCause((cause) => logFailureWarning("provider token last-use could not be recorded", cause)))
  }

  let window = { start: Number.NEGATIVE_INFINITY, lookups: 0 }
  const lookUp = (prefix: string) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const missedAt = missed.get(prefix)
      if (missedAt !== undefined && now - missedAt < refreshMs) return undefined
      if (now - window.start >= 1000) window = { start: now, lookups: 0 }
      if (window.lookups >= tokenLookupsPerSecond) return undefined
      window.lookups += 1
      const found = yield* tokens.liveToken(prefix).pipe(
        Effect.map((option) => (option._tag === "Some" ? option.value : undefined)),
        Effect.catchCause((cause) =>
          Effect.as(logFailureWarning("a provider token could not be looked up", cause), undefined)
        )
      )
      if (found !== undefined) yield* Ref.update(live, (entries) => new Map(entries).set(prefix, found))
      else missed.set(prefix, now)
      return found
    })

  const authenticate = (token: Redacted.Redacted<string>) =>
    Effect.gen(function* () {
      const value = Redacted.value(token)
      const prefix = providerTokenPattern.exec(value)?.[1]
      if (prefix === undefined) return yield* Effect.fail(unauthorized)
      const entry = (yield* Ref.get(live)).get(prefix) ?? (yield* lookUp(prefix))
      if (entry === undefined || !timingSafeEqual(entry.digest, tokenDigest(value))) {
        return yield* Effect.fail(unauthorized)
      }
      used.add(entry.prefix)
      return { id: entry.providerId, name: entry.providerName }
    })
  return { authenticate, tokenUpkeep } as const
})

/** The provider token store, kept fresh by ProviderTokenRefreshLive. */
export class ProviderAuthenticator extends Context.Service<ProviderAuthenticator>()("Booking/ProviderAuthenticator", {
  make: makeProviderAuthenticate
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide(ProviderTokens.Default))
}

export const ProviderAuthenticationLive = Layer.effect(
  ProviderAuthentication,
  Effect.map(ProviderAuthenticator, ({ authenticate }) =>
    ProviderAuthentication.of({
      providerBearer: (effect) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          Effect.flatMap(authenticate(bearerTokenOf(request.headers)), (provider) =>
            Effect.provideService(effect, AuthenticatedProvider, provider)
          )
        )
    })
  )
).pipe(Layer.provide(ProviderAuthenticator.Default))

/** The provider token store's loops (keepTokensFresh), for as long as the server runs. */
export const ProviderTokenRefreshLive = Layer.effectDiscard(
  Effect.flatMap(ProviderAuthenticator, (authenticator) => keepTokensFresh(authenticator.tokenUpkeep))
).pipe(Layer.provide(ProviderAuthenticator.Default))
