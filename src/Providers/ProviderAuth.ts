import { Context, Effect, Layer, Redacted } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { Unauthorized } from "../Domain/Errors.js"
import { AuthenticatedProvider } from "../Domain/Provider.js"
import { bearerTokenOf, keepTokensFresh, makeIssuedTokens } from "../Partners/Authentication.js"
import { tokenDigest } from "../Partners/Partners.js"
import { ProviderAuthentication } from "./Api.js"
import { ProviderTokens, providerTokenPattern } from "./ProviderTokens.js"

const unauthorized = new Unauthorized({
  safe_next_step:
    "Send a provider token as 'Authorization: Bearer <token>' (the operator issues one with npm run provider -- token:issue <provider-id>). Partner tokens do not reach the provider API."
})

/** Provider tokens, with the partner tokens' guarantees (makeIssuedTokens). */
const makeProviderAuthenticate = Effect.gen(function* () {
  const tokens = yield* ProviderTokens
  const issued = yield* makeIssuedTokens("provider", tokens, providerTokenPattern)

  const authenticate = (token: Redacted.Redacted<string>) =>
    Effect.gen(function* () {
      const value = Redacted.value(token)
      const entry = yield* issued.match(value, tokenDigest(value))
      if (entry === undefined) return yield* Effect.fail(unauthorized)
      return { id: entry.providerId, name: entry.providerName, tokenPrefix: entry.prefix }
    })
  return { authenticate, tokenUpkeep: issued.tokenUpkeep } as const
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
