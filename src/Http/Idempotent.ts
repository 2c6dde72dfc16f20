import { Schema } from "effect"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"

/**
 * An idempotent create's two success answers, told apart by `idempotent_replay`: what this call
 * made (201), and a retry under the same key answered with the first answer again (200).
 */
export const madeOrReplayed = <S extends Schema.Top & { readonly Type: { readonly idempotent_replay: boolean } }>(
  answer: S
) =>
  [
    answer.check(Schema.makeFilter((body: S["Type"]) => !body.idempotent_replay)).pipe(HttpApiSchema.status(201)),
    answer.check(Schema.makeFilter((body: S["Type"]) => body.idempotent_replay)).annotate({
      description: "Idempotent replay"
    })
  ] as const
