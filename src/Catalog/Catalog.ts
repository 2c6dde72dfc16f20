import { Context, Effect, Layer, Option, Schema } from "effect"
import {
  CatalogData,
  type FixedPriceSeed,
  type JobType,
  supportedVerticalIds,
  type Vertical,
  type VerticalId
} from "../Domain/Catalog.js"
import { type Suggestion, suggestJobType, suggestVertical, type VocabularyVertical } from "../Domain/Suggestions.js"
import { catalogData, catalogSynonyms } from "./CatalogData.js"

/** A vertical id the catalog does not have: the issue, and the ids it does. */
export interface UnsupportedVerticalDetails {
  readonly issues: ReadonlyArray<string>
  readonly supported_vertical_ids: ReadonlyArray<VerticalId>
  readonly suggested_vertical_id?: VerticalId
  readonly suggested_job_type_id?: string
  readonly safe_next_step: string
}

/** A job type the vertical does not have: the issue, and the job types it does. */
export interface UnknownJobTypeDetails {
  readonly issues: ReadonlyArray<string>
  readonly accepted_job_type_ids: ReadonlyArray<string>
  readonly suggested_vertical_id?: VerticalId
  readonly suggested_job_type_id?: string
  readonly safe_next_step: string
}

const suggested = (suggestion: Suggestion | undefined) =>
  suggestion === undefined || !suggestion.bookable
    ? {}
    : {
        suggested_vertical_id: suggestion.verticalId as VerticalId,
        ...(suggestion.jobTypeId === undefined ? {} : { suggested_job_type_id: suggestion.jobTypeId })
      }

interface Labelled {
  readonly label_sv: string
  readonly label_en: string
}

/** The catalog's words that suggestions match: each vertical's and job type's id, labels and synonyms. */
export const catalogVocabulary = (data: {
  readonly verticals: ReadonlyArray<
    Labelled & {
      readonly vertical_id: string
      readonly job_types: ReadonlyArray<Labelled & { readonly job_type_id: string }>
    }
  >
  readonly unavailable_verticals: ReadonlyArray<Labelled & { readonly vertical_id: string }>
}): ReadonlyArray<VocabularyVertical> => [
  ...data.verticals.map((v) => ({
    verticalId: v.vertical_id,
    bookable: true,
    words: [v.label_sv, v.label_en, ...(catalogSynonyms.verticals[v.vertical_id] ?? [])],
    jobTypes: v.job_types.map((jt) => ({
      jobTypeId: jt.job_type_id,
      words: [jt.job_type_id, jt.label_sv, jt.label_en, ...(catalogSynonyms.jobTypes[jt.job_type_id] ?? [])]
    }))
  })),
  ...data.unavailable_verticals.map((v) => ({
    verticalId: v.vertical_id,
    bookable: false,
    words: [v.label_sv, v.label_en, ...(catalogSynonyms.verticals[v.vertical_id] ?? [])],
    jobTypes: []
  }))
]

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
    const vocabulary = catalogVocabulary(data)
    const labelOf = (verticalId: string, jobTypeId?: string) => {
      const vertical = verticals.get(verticalId)
      const jobType = jobTypeId === undefined ? undefined : jobTypes.get(`${verticalId}/${jobTypeId}`)
      const of = jobType ?? vertical
      return of === undefined ? "" : ` (${of.label_sv} / ${of.label_en})`
    }
    const unavailable = new Map(data.unavailable_verticals.map((v) => [v.vertical_id, v]))

    /**
     * The next step of a refused vertical: the supported one it most likely means first, `again`
     * being how to retry ("search again"); a vertical listed as not bookable yet says so.
     */
    const verticalStep = (said: string, suggestion: Suggestion | undefined, again: string) => {
      if (suggestion?.bookable) {
        const id = suggestion.verticalId
        return suggestion.jobTypeId === undefined
          ? `This kind of job is vertical_id ${id}${labelOf(id)} here: ${again} with vertical_id ${id} and one of its job_type_ids (see the capabilities).`
          : `This job is vertical_id ${id}, job_type_id ${suggestion.jobTypeId}${labelOf(id, suggestion.jobTypeId)} here: ${again} with those ids.`
      }
      const listed = unavailable.get(suggestion?.verticalId ?? said)
      if (listed !== undefined) return listed.safe_next_step
      return `If the job is plumbing (vvs), electrical work (electrician), moving or cleaning, ${again} with that vertical_id from supported_vertical_ids; otherwise tell the user this kind of job is not bookable through this service yet, and nothing was booked.`
    }

    const jobTypeStep = (suggestion: Suggestion | undefined, again: string) =>
      suggestion?.jobTypeId === undefined
        ? `Pick the job_type_id from accepted_job_type_ids that describes the job and ${again}; if none does, ask the user what the job is.`
        : `The closest job type is vertical_id ${suggestion.verticalId}, job_type_id ${suggestion.jobTypeId}${labelOf(suggestion.verticalId, suggestion.jobTypeId)}. If that is the job, ${again} with it; otherwise pick one from accepted_job_type_ids.`

    return {
      verticals: data.verticals,
      unavailableVerticals: data.unavailable_verticals,
      seeds,
      jobType: (verticalId: string, jobTypeId: string) =>
        Option.fromNullishOr(jobTypes.get(`${verticalId}/${jobTypeId}`)),
      /**
       * The vertical and job type a request names, or the caller's refusal naming what exists, the
       * closest supported one and the next step (`again`: how the caller retries, "search again").
       */
      resolve: <EV, EJ>(
        verticalId: string,
        jobTypeId: string,
        again: string,
        refuse: {
          readonly vertical: (details: UnsupportedVerticalDetails) => EV
          readonly jobType: (details: UnknownJobTypeDetails) => EJ
        }
      ): Effect.Effect<{ readonly vertical: Vertical; readonly jobType: JobType }, EV | EJ> => {
        const vertical = verticals.get(verticalId)
        if (vertical === undefined) {
          const suggestion = suggestVertical(vocabulary, verticalId, jobTypeId)
          const meant = suggestion?.bookable ? `; it looks like ${suggestion.verticalId}` : ""
          return Effect.fail(
            refuse.vertical({
              issues: [
                `vertical_id: ${verticalId} is not supported${meant}; use one of ${supportedVerticalIds.join(", ")}`
              ],
              supported_vertical_ids: supportedVerticalIds,
              ...suggested(suggestion),
              safe_next_step: verticalStep(verticalId, suggestion, again)
            })
          )
        }
        const jobType = jobTypes.get(`${verticalId}/${jobTypeId}`)
        if (jobType === undefined) {
          const suggestion = suggestJobType(vocabulary, verticalId, jobTypeId)
          const meant =
            suggestion?.jobTypeId === undefined
              ? ""
              : suggestion.verticalId === verticalId
                ? `; the closest is ${suggestion.jobTypeId}`
                : `; it is a job type of ${suggestion.verticalId}`
          return Effect.fail(
            refuse.jobType({
              issues: [`job_type_id: ${jobTypeId} is not a job type of ${verticalId}${meant}`],
              accepted_job_type_ids: vertical.job_types.map((jt) => jt.job_type_id),
              ...suggested(suggestion),
              safe_next_step: jobTypeStep(suggestion, again)
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
