import { Console, Effect } from "effect"
import { formatStamp } from "../Domain/Zone.js"
import { PartnerError, Partners } from "../Partners/Partners.js"

const usage = `usage:
  npm run partner -- create [--sandbox] <partner-id> <name...>
                                                     a sandbox partner's bookings and requests notify nobody
  npm run partner -- token:issue <partner-id>        prints a new token once; it works at once everywhere
  npm run partner -- token:revoke <prefix-or-token>  stops it on every instance within 2 seconds
  npm run partner -- list`

/**
 * Said with the first partner token ever issued: a development server decides at start whether it
 * runs open (src/Partners/Authentication.ts), and a token, even a revoked one, ends that.
 */
export const firstTokenNote =
  "This is the first partner token: a development server started without AUTH_MODE or configured tokens ran open (calls without a token passed as the anonymous partner). From its next start it runs in token mode: every call that needs a token (confirm, booking status, cancel, reschedule, follow-up requests) answers 401 without one; capabilities and search still need none; a server running now keeps its mode until it restarts, and AUTH_MODE=open keeps development open."

/** What `npm run partner -- <args>` does, given its arguments. */
export const partnerCommand = (argv: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const partners = yield* Partners
    const [command, ...args] = argv
    switch (command) {
      case "create": {
        const sandbox = args.includes("--sandbox")
        const [id, ...name] = args.filter((arg) => arg !== "--sandbox")
        if (!id || name.length === 0) return yield* new PartnerError({ message: usage })
        yield* partners.create(id, name.join(" "), { sandbox })
        return yield* Console.log(`created ${sandbox ? "sandbox " : ""}partner ${id}`)
      }
      case "token:issue": {
        const [id] = args
        if (!id) return yield* new PartnerError({ message: usage })
        const first = !(yield* partners.anyTokenEver)
        const { token, prefix } = yield* partners.issueToken(id)
        yield* Console.log(token)
        yield* Console.error(`issued token ${prefix} for ${id}; it is shown only this once`)
        if (first) yield* Console.error(firstTokenNote)
        return
      }
      case "token:revoke": {
        const [prefix] = args
        if (!prefix) return yield* new PartnerError({ message: usage })
        const revoked = yield* partners.revokeToken(prefix)
        return yield* Console.log(`revoked ${revoked}`)
      }
      case "list": {
        const rows = yield* partners.list
        for (const row of rows) {
          const token = row.prefix
            ? `${row.prefix} ${row.revokedAt ? `revoked ${formatStamp(row.revokedAt)}` : "live"}, last used ${row.lastUsedAt ? formatStamp(row.lastUsedAt) : "never"}`
            : "no tokens"
          const state = `${row.active ? "active" : "inactive"}${row.sandbox ? " sandbox" : ""}`
          yield* Console.log(`${row.id}\t${state}\t${row.name}\t${token}`)
        }
        return
      }
      default:
        return yield* new PartnerError({ message: usage })
    }
  })
