import { randomUUID } from "node:crypto"
import { expect } from "@effect/vitest"
import {
  claimsFor,
  describeHold,
  type fc,
  holdAt,
  holdRequest,
  otherPartner,
  type PropRun,
  type ProviderSpec,
  partner,
  releaseAt,
  type Slot,
  searchedAt,
  sign
} from "../support/Props.js"

/** A hold of the model: live while active and before its expiry on the model's clock. */
export interface ModelHold {
  readonly id: string
  readonly who: typeof partner
  readonly provider: ProviderSpec
  readonly slot: Slot
  readonly expiresAt: number
  status: "active" | "released" | "confirmed"
}

/** What the hold commands need of the booking model: its clock, its holds and what takes time. */
export interface HoldModel {
  now: number
  readonly holds: Array<ModelHold>
  live(hold: ModelHold): boolean
  ownHold(who: typeof partner, p: ProviderSpec, slot: Slot): ModelHold | undefined
  clashes(p: ProviderSpec, slot: Slot): boolean
}

export interface HoldReal {
  readonly run: PropRun
  readonly providers: ReadonlyArray<ProviderSpec>
  readonly slots: ReadonlyArray<Slot>
}

let holdKeys = 0

/** A hold of a provider's slot for some seconds, by the partner or another one. */
export class HoldCommand<M extends HoldModel> implements fc.AsyncCommand<M, HoldReal> {
  constructor(
    readonly providerIndex: number,
    readonly slotIndex: number,
    readonly asOther: boolean,
    readonly seconds: number
  ) {}
  check() {
    return true
  }
  async run(model: M, real: HoldReal) {
    const p = real.providers[this.providerIndex % real.providers.length]!
    const slot = real.slots[this.slotIndex % real.slots.length]!
    const who = this.asOther ? otherPartner : partner
    const { token } = await real.run(sign(claimsFor(p, slot), new Date(model.now)))
    const outcome = await real.run(holdAt(holdRequest(token, `hold-key-${++holdKeys}`, this.seconds), who, model.now))
    const label = `${this.toString()} at +${(model.now - searchedAt.getTime()) / 60_000} min: ${describeHold(outcome)}`
    if (model.ownHold(who, p, slot) !== undefined) {
      return expect(outcome, label).toMatchObject({ _tag: "Rejected", code: "too_many_holds" })
    }
    if (model.clashes(p, slot)) return expect(outcome, label).toMatchObject({ _tag: "Rejected", code: "slot_taken" })
    expect(outcome, label).toMatchObject({
      _tag: "Done",
      body: { idempotent_replay: false, hold: { status: "active" } }
    })
    if (outcome._tag !== "Done") return
    expect(Date.parse(outcome.body.hold.expires_at), label).toBe(model.now + this.seconds * 1000)
    model.holds.push({
      id: outcome.body.hold.hold_id,
      who,
      provider: p,
      slot,
      expiresAt: model.now + this.seconds * 1000,
      status: "active"
    })
  }
  toString() {
    return `Hold(provider ${this.providerIndex}, slot ${this.slotIndex}${this.asOther ? ", other partner" : ""}, ${this.seconds} s)`
  }
}

/** A release of a model hold (or one that never existed), by its holder or by another partner. */
export class ReleaseCommand<M extends HoldModel> implements fc.AsyncCommand<M, HoldReal> {
  constructor(
    readonly holdRef: number,
    readonly byOther: boolean
  ) {}
  check() {
    return true
  }
  async run(model: M, real: HoldReal) {
    const target = model.holds[this.holdRef % (model.holds.length + 1)]
    const owner = target?.who ?? partner
    const who = this.byOther ? (owner === partner ? otherPartner : partner) : owner
    const outcome = await real.run(releaseAt(target?.id ?? randomUUID(), who, model.now))
    const label = `${this.toString()} of ${target ? `${target.id} ${target.status}` : "none"}: ${describeHold(outcome)}`
    if (target === undefined || this.byOther) {
      return expect(outcome, label).toMatchObject({ _tag: "Rejected", code: "hold_not_found" })
    }
    const live = model.live(target)
    const status = live ? "released" : target.status === "active" ? "expired" : target.status
    expect(outcome, label).toMatchObject({ _tag: "Done", body: { released: live, hold: { status } } })
    if (live) target.status = "released"
  }
  toString() {
    return `Release(hold ${this.holdRef}${this.byOther ? ", by another partner" : ""})`
  }
}

/** Time passes on the service's clock: holds run out at their expiry, whatever else runs. */
export class ExpireCommand<M extends HoldModel> implements fc.AsyncCommand<M, HoldReal> {
  constructor(readonly minutes: number) {}
  check() {
    return true
  }
  async run(model: M) {
    model.now += this.minutes * 60_000
  }
  toString() {
    return `Wait(${this.minutes} min)`
  }
}
