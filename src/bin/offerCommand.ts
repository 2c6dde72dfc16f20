import { Console, Effect } from "effect"
import { ProviderOffer } from "../Providers/Offer.js"
import { ProviderTokenError } from "../Providers/ProviderTokens.js"
import { usage } from "./providerCommand.js"

/** `npm run provider -- changes <provider-id> [limit]`: the provider's offer trail, as GET /api/provider/changes has it. */
export const offerCommand = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const [id, limit] = args
    if (!id || (limit !== undefined && !/^([1-9]\d?|100)$/.test(limit)))
      return yield* new ProviderTokenError({ message: usage })
    const offer = yield* ProviderOffer
    const page = yield* offer
      .changes(id, limit === undefined ? {} : { limit: Number(limit) })
      .pipe(Effect.mapError((error) => new ProviderTokenError({ message: error.message })))
    if (page.changes.length === 0) return yield* Console.log(`no offer changes for ${id}`)
    for (const change of page.changes) {
      const what = change.changes
        .map((c) => `${c.field}: ${JSON.stringify(c.before)} -> ${JSON.stringify(c.after)}`)
        .join("; ")
      const subject = change.service_id === null ? change.subject : `${change.subject} ${change.service_id}`
      yield* Console.log(`${change.changed_at}\t${change.changed_by}\t${subject}\t${what}`)
    }
  })
