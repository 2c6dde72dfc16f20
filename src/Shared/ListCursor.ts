import { createHmac, timingSafeEqual } from "node:crypto"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { InvalidRequest } from "../Domain/Errors.js"
import {
  CursorClaims,
  defaultPageLimit,
  type PageFilters,
  type PagePosition,
  type PageQuery
} from "../Domain/ListPage.js"
import { OptionSigner } from "./OptionSigner.js"

const VERSION = "c1"
const cursorPattern = /^c1\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{1,900})\.([A-Za-z0-9_-]{43})$/
const decodeClaims = Schema.decodeUnknownOption(Schema.fromJsonString(CursorClaims))

const refused = (issue: string) =>
  new InvalidRequest({
    issues: [`cursor: ${issue}`],
    safe_next_step:
      "Pass next_cursor exactly as the last page returned it, with the same filters or none; or start the walk again without a cursor."
  })

/** Where a page starts: the walk's filters, and the position it continues after (none: the first page). */
export interface PageStart {
  readonly filters: PageFilters
  readonly after: Option.Option<PagePosition>
}

/**
 * A list's `next_cursor`: `c1.<kid>.<payload>.<tag>`, the payload the base64url JSON of where the
 * page ended, for which list and owner, with which filters, and the tag its HMAC-SHA256 under a
 * key derived from the option signing key. Every instance holds the keys, so a cursor from one
 * is read by any; the first key signs and every key verifies, as for options.
 */
export class ListCursor extends Context.Service<ListCursor>()("Booking/ListCursor", {
  make: Effect.gen(function* () {
    const signer = yield* OptionSigner
    const secrets = new Map(signer.derivedSecrets("list-cursor").map(({ kid, secret }) => [kid, secret]))
    const [signing] = signer.derivedSecrets("list-cursor")
    const tagOf = (secret: Buffer, signed: string) =>
      createHmac("sha256", secret).update(signed, "utf8").digest("base64url")

    /** The cursor after `position`; a service without a signing key cannot make one. */
    const next = (list: string, owner: string, filters: PageFilters, position: PagePosition) =>
      Effect.suspend(() => {
        if (signing === undefined) return Effect.die(new Error("no signing key to make a list cursor with"))
        const claims: CursorClaims = {
          list,
          owner,
          ...(filters.status === undefined ? {} : { status: filters.status }),
          ...(filters.updatedSince === undefined ? {} : { since: filters.updatedSince }),
          at: position.at,
          id: position.id
        }
        const payload = Buffer.from(JSON.stringify(claims), "utf8").toString("base64url")
        const signed = `${VERSION}.${signing.kid}.${payload}`
        return Effect.succeed(`${signed}.${tagOf(signing.secret, signed)}`)
      })

    const verified = (cursor: string): Option.Option<CursorClaims> => {
      const parts = cursorPattern.exec(cursor)
      if (parts === null) return Option.none()
      const [, kid = "", payload = "", tag = ""] = parts
      const secret = secrets.get(kid)
      if (secret === undefined) return Option.none()
      const expected = Buffer.from(tagOf(secret, `${VERSION}.${kid}.${payload}`), "utf8")
      const presented = Buffer.from(tag, "utf8")
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return Option.none()
      return decodeClaims(Buffer.from(payload, "base64url").toString("utf8"))
    }

    /**
     * Where the page asked for starts. With a cursor the filters are the cursor's; filters sent
     * beside it must be the same, so a walk never silently changes what it lists halfway.
     */
    const start = (list: string, owner: string, query: PageFilters & { readonly cursor?: string | undefined }) =>
      Effect.suspend((): Effect.Effect<PageStart, InvalidRequest> => {
        const filters: PageFilters = { status: query.status, updatedSince: query.updatedSince }
        if (query.cursor === undefined) return Effect.succeed({ filters, after: Option.none() })
        const claims = verified(query.cursor)
        if (Option.isNone(claims)) {
          return Effect.fail(refused("is not a cursor this service made, or it was altered or cut short"))
        }
        const { value } = claims
        if (value.list !== list || value.owner !== owner) {
          return Effect.fail(
            refused("continues another list; a cursor is only read by the list and token it came from")
          )
        }
        const differs = (sent: string | undefined, held: string | undefined) => sent !== undefined && sent !== held
        if (differs(query.status, value.status) || differs(query.updatedSince, value.since)) {
          return Effect.fail(refused("was made with other filters (status, updated_since) than this call sends"))
        }
        return Effect.succeed({
          filters: { status: value.status, updatedSince: value.since },
          after: Option.some({ at: value.at, id: value.id })
        })
      })

    /**
     * One page of a list: where it starts (the cursor's position and filters), the rows `read`
     * gives (one more than the limit, which tells that a next page exists), and the cursor after
     * the page's last row, or null on the last page.
     */
    const page = <Row extends { readonly id: string; readonly positionAt: string }, E, R>(
      list: string,
      owner: string,
      query: PageFilters & { readonly cursor?: string | undefined; readonly limit?: number | undefined },
      read: (from: PageQuery) => Effect.Effect<ReadonlyArray<Row>, E, R>
    ) =>
      Effect.gen(function* () {
        const begun = yield* start(list, owner, query)
        const limit = query.limit ?? defaultPageLimit
        const fetched = yield* read({ filters: begun.filters, after: Option.getOrUndefined(begun.after), limit })
        const rows = fetched.slice(0, limit)
        const last = rows.at(-1)
        const nextCursor =
          fetched.length > limit && last !== undefined
            ? yield* next(list, owner, begun.filters, { at: last.positionAt, id: last.id })
            : null
        return { rows, nextCursor }
      })

    return { next, page, start } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide(OptionSigner.Default))
}
