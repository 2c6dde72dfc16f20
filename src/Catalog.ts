import { Effect, Option, Schema } from "effect"
import { catalogData } from "./CatalogData.js"
import { CatalogData, type FixedPriceSeed, type JobType, type Vertical, type VerticalId } from "./Domain/Catalog.js"

/** The single source of verticals, job types and fixed-price seeds, decoded once at start. */
export class Catalog extends Effect.Service<Catalog>()("Booking/Catalog", {
  effect: Effect.gen(function* () {
    const data = yield* Schema.decodeUnknown(CatalogData)(catalogData).pipe(Effect.orDie)
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
      vertical: (verticalId: string) => Option.fromNullable(verticals.get(verticalId)),
      jobType: (verticalId: string, jobTypeId: string) =>
        Option.fromNullable(jobTypes.get(`${verticalId}/${jobTypeId}`))
    }
  })
}) {}
