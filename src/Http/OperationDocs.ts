import { Context } from "effect"
import * as OpenApi from "effect/http-api/OpenApi"

/** An operation's example bodies in the OpenAPI document, kept in its folder's Examples.ts. */
export interface OperationExample {
  readonly request?: unknown
  readonly response: unknown
}

/** What the OpenAPI document says of an operation beyond its summary, declared on its endpoint. */
export interface OperationFacts {
  /** A paragraph: what it does and what a partner must do before and after. */
  readonly description?: string
  /** Component names of its generated inline bodies, so a generated client can name them. */
  readonly requestName?: string
  readonly responseName?: string
  /** Takes a partner token but needs none: an empty security requirement first makes it optional. */
  readonly tokenOptional?: boolean
  /** Served from memory with a strong ETag and 304 on `If-None-Match`. */
  readonly cached?: boolean
  /** Its request and success bodies as the README's flow answered them. */
  readonly example?: OperationExample
}

/** The annotation that carries an endpoint's OperationFacts. Pure, so the typed client can import the Api. */
export class OperationDocs extends Context.Service<OperationDocs, OperationFacts>()("Booking/OperationDocs") {}

/** What every endpoint declares of itself: its summary and its facts, for `endpoint.annotateMerge(...)`. */
export const documented = (summary: string, facts: OperationFacts) =>
  Context.make(OpenApi.Summary, summary).pipe(Context.add(OperationDocs, facts))

type Groups = ReadonlyArray<{
  readonly identifier: string
  readonly endpoints: Readonly<Record<string, { readonly annotations: Context.Context<never> }>>
}>

/** The value of an annotation on each endpoint that carries it, by operation id (`group.endpoint`). */
export const annotatedOperations = <I, A>(groups: Groups, key: Context.Key<I, A>): ReadonlyMap<string, A> =>
  new Map(
    groups.flatMap((group) =>
      Object.entries(group.endpoints).flatMap(([name, endpoint]) => {
        const value = Context.getOption(endpoint.annotations, key)
        return value._tag === "Some" ? [[`${group.identifier}.${name}`, value.value] as const] : []
      })
    )
  )

export const operationFactsOf = (groups: Groups) => annotatedOperations(groups, OperationDocs)
