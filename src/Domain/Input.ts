import { Option, Schema, SchemaGetter } from "effect"
import { isValidTimeZone, providerTimeZone } from "./Zone.js"

/**
 * How every request body is decoded: "no extra properties" is part of the contract, and Effect
 * Schema ignores excess properties by default, so an unknown key is an error everywhere; every
 * issue is reported, not the first. Effect 4 reads these as options of the decode, not as an
 * annotation of the schema: the Api carries them (HttpApi.PayloadParseOptions) and the MCP tools
 * and the tests decode with them.
 */
export const inputParseOptions = { onExcessProperty: "error", errors: "all", reportInput: true } as const

/** A request body's schema; its decoding options are inputParseOptions (see there). */
export const strictInput = <S extends Schema.Top>(schema: S): S => schema

/**
 * An optional input field that may be absent but not `undefined`: JSON has no undefined, and
 * an `undefined` member would add "Expected undefined" to every error on the field.
 */
export const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(schema)

/**
 * An optional field that may also be `undefined`, decoded to `fallback` when absent or undefined;
 * its issues also say the value is not undefined.
 */
export const optionalWithDefault = <S extends Schema.Top & { readonly Type: string; readonly Encoded: string }>(
  schema: S,
  fallback: S["Type"]
) =>
  Schema.optional(schema).pipe(
    Schema.decodeTo(Schema.toType(schema), {
      decode: SchemaGetter.transformOptional((value) =>
        Option.orElseSome(
          Option.filter(value, (present) => present !== undefined),
          () => fallback
        )
      ),
      encode: SchemaGetter.transformOptional((value) => value)
    })
  )

/**
 * A string matching `pattern`, with the pattern in the JSON Schema: Effect 4's `isPattern` leaves
 * it out of the generated document, where the contract's OpenAPI document has always shown it.
 */
export const matching = (pattern: RegExp, annotations?: { readonly message?: string }) =>
  Schema.makeFilter(
    (s: string) => pattern.test(s),
    {
      toJsonSchema: () => ({ pattern: pattern.source }),
      expected: `a string matching the pattern ${pattern.source}`,
      ...annotations
    },
    // A value that fails here is not checked further: one issue per field, the first that applies.
    true
  )

/** Text with no leading or trailing whitespace and at least one character. */
export const NonEmptyTrimmedString = Schema.Trimmed.check(Schema.isNonEmpty()).annotate({
  identifier: "NonEmptyTrimmedString"
})

/** Code points, as the contract's and JSON Schema's lengths count, not UTF-16 units; stops past `limit`. */
const codePointsUpTo = (s: string, limit: number) => {
  let count = 0
  for (const _ of s) if (++count > limit) break
  return count
}

/**
 * A string of `min` to `max` characters, the commonest bound of the contract. Whitespace alone
 * is blank, not text: an optional field given as "   " is refused rather than read as absent.
 */
export const text = (min: number, max: number) =>
  Schema.String.check(
    Schema.makeFilter(
      (s) => {
        if (s.length > 0 && s.trim().length === 0) return "must not be blank"
        const length = codePointsUpTo(s, max)
        return length < min
          ? `Expected a string at least ${min} character(s) long`
          : length > max
            ? `Expected a string at most ${max} character(s) long`
            : true
      },
      {
        toJsonSchema: () => ({ minLength: min, maxLength: max }),
        arbitraryConstraint: { minLength: min, maxLength: Math.min(max, min + 40) }
      },
      // Text that fails here is not checked further (a time zone's name, say): one issue per field.
      true
    )
  )

/** PostgreSQL stores neither NUL nor half a surrogate pair, and no client means to send them. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export const hasUnstorableCharacters = (s: string) => s.includes("\0") || loneSurrogate.test(s)

export const unstorableMessage = "must not contain NUL or unpaired surrogate characters"

/** How deep arrays and objects nest in a parsed JSON value, counted no further than `limit + 1`. */
export const nestingDepth = (value: unknown, limit: number): number => {
  if (typeof value !== "object" || value === null) return 0
  if (limit < 0) return 1
  let deepest = 0
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, nestingDepth(child, limit - 1))
    if (deepest >= limit) break
  }
  return deepest + 1
}

export interface InputIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/**
 * The first `limit` keys and strings of a parsed JSON value that PostgreSQL could not store, by
 * field path. A bad key is named by the object holding it, so the response does not echo it.
 */
export const unstorableStrings = (value: unknown, limit: number): Array<InputIssue> => {
  const issues: Array<InputIssue> = []
  const walk = (value: unknown, path: ReadonlyArray<PropertyKey>): void => {
    if (issues.length >= limit) return
    if (typeof value === "string") {
      if (hasUnstorableCharacters(value)) issues.push({ path, message: unstorableMessage })
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        walk(item, [...path, index])
      })
    } else if (typeof value === "object" && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (hasUnstorableCharacters(key)) issues.push({ path, message: `keys ${unstorableMessage}` })
        else walk(child, [...path, key])
      }
    }
  }
  walk(value, [])
  return issues.slice(0, limit)
}

const daysIn = (year: number, month: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31

const dateTimePattern = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(?:Z|[+-](\d\d):(\d\d))$/i

/** A real calendar instant: no 30 February, no hour 24, no offset beyond ±23:59. */
const isCalendarInstant = (s: string) => {
  const match = dateTimePattern.exec(s)
  if (match === null) return false
  const field = (index: number) => Number(match[index] ?? 0)
  const [year, month, day] = [field(1), field(2), field(3)]
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    field(4) <= 23 &&
    field(5) <= 59 &&
    field(6) <= 59 &&
    field(7) <= 23 &&
    field(8) <= 59
  )
}

/** An RFC 3339 date-time with an explicit offset or Z, e.g. 2026-11-23T08:00:00+01:00. */
export const DateTimeString = Schema.String.check(
  Schema.makeFilter(
    (s) => isCalendarInstant(s) || "must be a real date-time with an offset, e.g. 2026-11-23T08:00:00+01:00",
    { toJsonSchema: () => ({ format: "date-time" }) }
  )
)

/** An IANA time zone this runtime knows, so search and request creation refuse the same names. */
export const TimeZoneInput = text(2, 80).check(
  Schema.makeFilter((zone: string) => isValidTimeZone(zone) || `must be an IANA time zone such as ${providerTimeZone}`)
)

/** A free-text field as a retry that retypes it would: case kept, spacing collapsed. */
export const sameText = (text: string) => text.trim().replace(/\s+/g, " ")
