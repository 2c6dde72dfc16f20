import { createHash } from "node:crypto"
import { Data, Effect, Option, Result, Schema } from "effect"
import type * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"
import type { BookingConfirmationRequest } from "../Domain/Booking.js"
import type { OptionExpired, SignedOption } from "../Domain/BookingOption.js"
import type { Partner } from "../Domain/Partner.js"
import type { Surface } from "../Domain/Surface.js"
import { type HoldsRepo, StoredHold, slotOfOption } from "../Shared/HoldsRepo.js"
import { hasExpired } from "../Shared/OptionSigner.js"
import type { Supply } from "../Supply/Supply.js"
import { offerQueryOf, type Prepared, prepare } from "./ConfirmChecks.js"
import { holdTarget, judgeHeld, noHold } from "./HeldOption.js"

const decodeHold = Schema.decodeUnknownEffect(StoredHold)

const offersReadCapacity = 1000
const holdersCapacity = 10_000

/** confirm_as_read's SQLSTATE: the offer or the hold is not as the confirm read it (migration 0020). */
export const readAgainState = "HSB01"

/** The one-statement confirm found the offer or the hold changed: it reads them, and writes again. */
export class ReadAgain extends Data.TaggedError("ReadAgain") {}

/**
 * What a confirm reads before it writes: the offer and the partner's hold, or, for an offer this
 * instance read before, nothing but the guard its write carries.
 */
export const confirmReads = (deps: {
  readonly sql: SqlClient.SqlClient
  readonly supply: Supply["Service"]
  readonly holds: HoldsRepo["Service"]
  readonly expiredRefusal: OptionExpired
}) => {
  const { sql, supply, holds, expiredRefusal } = deps
  /**
   * The offers confirms last read, by their question, with the digest of their text: a confirm of
   * an offer read before is checked against it and written in one round trip, on the condition
   * (confirm_as_read, in the claim) that the offer is still that text and the partner holds
   * nothing on the slot. Bounded; an entry that went stale costs one statement that aborts.
   */
  const offersRead = new Map<string, { readonly text: string; readonly md5: string }>()
  const offerKey = (option: SignedOption) =>
    `${option.providerId}\t${option.serviceId}\t${option.originPostcode}\t${option.destinationPostcode ?? ""}`
  const rememberOffer = (option: SignedOption, text: string) => {
    const key = offerKey(option)
    if (offersRead.get(key)?.text === text) return
    if (offersRead.size >= offersReadCapacity) offersRead.delete(offersRead.keys().next().value ?? key)
    offersRead.set(key, { text, md5: createHash("md5").update(text).digest("hex") })
  }
  /** Partners seen holding the slot they confirm: their confirms read the hold first. */
  const holders = new Set<string>()

  /**
   * A confirm's one read before it writes, in one round trip: the offer as it is now and the
   * partner's hold (the one `hold_id` names, or its latest on the option's slot).
   */
  const heldAndOffer = (partner: Partner["Service"], option: SignedOption, holdId: string | undefined, now: Date) => {
    const offerStatement = supply.currentOfferStatement(offerQueryOf(option))
    const target = holdTarget(option, holdId)
    const statement =
      target === undefined
        ? sql`SELECT (${offerStatement}) AS offer`
        : sql`SELECT (${offerStatement}) AS offer, h.* FROM (SELECT 1) AS one
            LEFT JOIN LATERAL (${holds.heldStatement(partner.id, target)}) AS h ON true`
    return Effect.gen(function* () {
      const row: Record<string, unknown> | undefined = (yield* statement)[0]
      const text = row?.offer
      if (typeof text === "string") rememberOffer(option, text)
      const offer = typeof text === "string" ? supply.currentOfferOf(text) : undefined
      // A stored hold that does not decode is a damaged table, not an answer for the client.
      const found =
        row === undefined || row.id === null || row.id === undefined
          ? Option.none<StoredHold>()
          : Option.some(yield* Effect.orDie(decodeHold(row)))
      if (Option.isSome(found)) {
        if (holders.size >= holdersCapacity) holders.clear()
        holders.add(partner.id)
      }
      const held = yield* judgeHeld(found, option, holdId, now)
      return { held, offer }
    })
  }

  /**
   * A confirm in one round trip when this instance read the option's offer before and nothing
   * else needs reading (no hold_id, an option not yet expired, a partner not seen holding):
   * checked against the offer as read, written on the condition that it still holds. A check
   * that fails, or a condition that no longer holds, sends the confirm to `heldAndOffer` and the
   * write after it, so every answer is the one reading first would give.
   */
  const asRead = (
    request: BookingConfirmationRequest,
    option: SignedOption,
    partner: Partner["Service"],
    now: Date,
    surface: Surface
  ): Effect.Effect<Option.Option<{ readonly prepared: Prepared; readonly guard: Statement.Fragment }>> => {
    const known = offersRead.get(offerKey(option))
    if (known === undefined || request.hold_id !== undefined || holders.has(partner.id) || hasExpired(option, now)) {
      return Effect.succeedNone
    }
    const checks = prepare(
      request,
      Result.succeed(option),
      now,
      surface,
      noHold,
      supply.currentOfferOf(known.text),
      expiredRefusal
    )
    return Effect.map(Effect.result(checks), (checked) =>
      Result.isFailure(checked)
        ? Option.none()
        : Option.some({
            prepared: checked.success,
            guard: sql`confirm_as_read((${supply.currentOfferStatement(offerQueryOf(option))}), ${known.md5},
              EXISTS (${holds.heldStatement(partner.id, slotOfOption(option))}))`
          })
    )
  }

  return { heldAndOffer, asRead } as const
}
