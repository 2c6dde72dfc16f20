import { Console, Effect, Layer } from "effect"
import { AppConfig } from "../AppConfig.js"
import { ToolDatabaseLive } from "../Database.js"
import { LoggerLive, reportStartFailure, runMain } from "../Main/Launch.js"
import { PartnerError, Partners } from "../Partners.js"

const usage = `usage:
  npm run partner -- create <partner-id> <name...>
  npm run partner -- token:issue <partner-id>        prints a new token once; keep it
  npm run partner -- token:revoke <prefix-or-token>  stops it on every instance within seconds
  npm run partner -- list`

const program = Effect.gen(function* () {
  const partners = yield* Partners
  const [command, ...args] = process.argv.slice(2)
  switch (command) {
    case "create": {
      const [id, ...name] = args
      if (!id || name.length === 0) return yield* new PartnerError({ message: usage })
      yield* partners.create(id, name.join(" "))
      return yield* Console.log(`created partner ${id}`)
    }
    case "token:issue": {
      const [id] = args
      if (!id) return yield* new PartnerError({ message: usage })
      const { token, prefix } = yield* partners.issueToken(id)
      yield* Console.log(token)
      return yield* Console.error(`issued token ${prefix} for ${id}; it is shown only this once`)
    }
    case "token:revoke": {
      const [prefix] = args
      if (!prefix) return yield* new PartnerError({ message: usage })
      yield* partners.revokeToken(prefix)
      return yield* Console.log(`revoked ${prefix}`)
    }
    case "list": {
      const rows = yield* partners.list
      for (const row of rows) {
        const token = row.prefix
          ? `${row.prefix} ${row.revokedAt ? `revoked ${row.revokedAt.toISOString()}` : "live"}, last used ${row.lastUsedAt?.toISOString() ?? "never"}`
          : "no tokens"
        yield* Console.log(`${row.id}\t${row.active ? "active" : "inactive"}\t${row.name}\t${token}`)
      }
      return
    }
    default:
      return yield* new PartnerError({ message: usage })
  }
})

runMain(
  program.pipe(
    Effect.provide(
      Partners.Default.pipe(
        Layer.provide(ToolDatabaseLive),
        Layer.provideMerge(LoggerLive("stderr")),
        Layer.provide(AppConfig.Default)
      )
    ),
    reportStartFailure
  ),
  { disableErrorReporting: true, disablePrettyLogger: true }
)
