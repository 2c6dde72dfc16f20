import { Console, Effect } from "effect"
import { formatStamp } from "../Domain/Zone.js"
import { ProviderTokenError, ProviderTokens } from "../Providers/ProviderTokens.js"

export const usage = `usage:
  npm run provider -- token:issue <provider-id>       prints a new provider API token once; it works at once everywhere
  npm run provider -- token:revoke <prefix-or-token>  stops it on every instance within 2 seconds
  npm run provider -- list
  npm run provider -- changes <provider-id> [limit]  the provider's offer changes, newest first (who, what, before and after)`

/** What `npm run provider -- <args>` does, given its arguments. */
export const providerCommand = (argv: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const tokens = yield* ProviderTokens
    const [command, ...args] = argv
    switch (command) {
      case "token:issue": {
        const [id] = args
        if (!id) return yield* new ProviderTokenError({ message: usage })
        const { token, prefix } = yield* tokens.issue(id)
        yield* Console.log(token)
        return yield* Console.error(
          `issued provider token ${prefix} for ${id}; it is shown only this once and reaches only /api/provider/…`
        )
      }
      case "token:revoke": {
        const [prefix] = args
        if (!prefix) return yield* new ProviderTokenError({ message: usage })
        const revoked = yield* tokens.revoke(prefix)
        return yield* Console.log(`revoked ${revoked}`)
      }
      case "list": {
        const rows = yield* tokens.list
        if (rows.length === 0) return yield* Console.log("no provider tokens")
        for (const row of rows) {
          const state = row.revokedAt ? `revoked ${formatStamp(row.revokedAt)}` : "live"
          yield* Console.log(
            `${row.providerId}\t${row.providerName}\t${row.prefix} ${state}, last used ${row.lastUsedAt ? formatStamp(row.lastUsedAt) : "never"}`
          )
        }
        return
      }
      default:
        return yield* new ProviderTokenError({ message: usage })
    }
  })
