import { Context, Effect, Layer, Option, Schema } from "effect"
import { catalogData } from "./CatalogData.js"
import {
  CatalogData,
  type FixedPriceSeed,
  type JobType,
  supportedVerticalIds,
  type Vertical,
  type VerticalId
} from "./Domain/Catalog.js"

/** A vertical id the catalog does not have: the issue, and the ids it does. */
export interface UnsupportedVerticalDetails {
  readonly issues: ReadonlyArray<string>
  readonly supported_vertical_ids: ReadonlyArray<VerticalId>
}

/** A job type the vertical does not have: the issue, and the job types it does. */
export interface UnknownJobTypeDetails {
  readonly issues: ReadonlyArray<string>
  readonly accepted_job_type_ids: ReadonlyArray<string>
}

/** The single source of verticals, job types and fixed-price seeds, decoded once at start. */
export class Catalog extends Context.Service<Catalog>()("Booking/Catalog", {
  make: Effect.gen(function* () {
    const data = yield* Schema.decodeUnknownEffect(CatalogData)(catalogData).pipe(Effect.orDie)
    const verticals = new Map<string, Vertical>(data.verticals.map((v) => [v.vertical_id, v]))
    const jobTypes = new Map<string, JobType>(
      data.verticals.flatMap((v) => v.job_types.map((jt) => [`${v.vertical_id}/${jt.job_type_id}`, jt] as const))
    )
    const seeds: ReadonlyArray<FixedPriceSeed & { readonly vertical_id: VerticalId; readonly job_type_id: string }> =
      data.verticals.flatMap((v) =>
        v.job_types.flatMap((jt) =>
          jt.fixed_price_seed
            ? [{ ...jt.fixed_price_seed, vertical_id: v.vertical_id, job_type_id: jt.job_type_id }]
            : []
        )
      )
    return {
      verticals: data.verticals,
      unavailableVerticals: data.unavailable_verticals,
      seeds,
      jobType: (verticalId: string, jobTypeId: string) =>
        Option.fromNullishOr(jobTypes.get(`${verticalId}/${jobTypeId}`)),
      /** The vertical and job type a request names, or the caller's refusal naming what exists. */
      resolve: <EV, EJ>(
        verticalId: string,
        jobTypeId: string,
        refuse: {
          readonly vertical: (details: UnsupportedVerticalDetails) => EV
          readonly jobType: (details: UnknownJobTypeDetails) => EJ
        }
      ): Effect.Effect<{ readonly vertical: Vertical; readonly jobType: JobType }, EV | EJ> => {
        const vertical = verticals.get(verticalId)
        if (vertical === undefined) {
          return Effect.fail(
            refuse.vertical({
              issues: [`vertical_id: ${verticalId} is not supported; use one of ${supportedVerticalIds.join(", ")}`],
              supported_vertical_ids: supportedVerticalIds
            })
          )
        }
        const jobType = jobTypes.get(`${verticalId}/${jobTypeId}`)
        if (jobType === undefined) {
          return Effect.fail(
            refuse.jobType({
              issues: [`job_type_id: ${jobTypeId} is not a job type of ${verticalId}`],
              accepted_job_type_ids: vertical.job_types.map((jt) => jt.job_type_id)
            })
          )
        }
        return Effect.succeed({ vertical, jobType })
      }
    }
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
