import type { SchemaAST, SchemaIssue } from "effect"
import type { InputIssue } from "./Input.js"

/**
 * What a value is, as the contract's messages name it ("Expected string, actual 1"): the wording
 * clients and the contract's examples read.
 */
const expectedOf = (ast: SchemaAST.AST): string => {
  const message = ast.annotations?.expected
  if (typeof message === "string") return message
  switch (ast._tag) {
    case "String":
      return "string"
    case "Number":
      return "number"
    case "Boolean":
      return "boolean"
    case "Undefined":
      return "undefined"
    case "Null":
      return "null"
    case "Literal":
      return JSON.stringify(ast.literal)
    case "Union":
      return ast.types.map(expectedOf).join(" | ")
    case "Arrays":
      return "ReadonlyArray<unknown>"
    case "Objects":
      return "object"
    default:
      return ast._tag.toLowerCase()
  }
}

const actualOf = (issue: { readonly input?: unknown }) => {
  if (!("input" in issue)) return ""
  const input = issue.input
  if (input === undefined) return ", actual undefined"
  try {
    return `, actual ${JSON.stringify(input)}`
  } catch {
    return `, actual ${String(input)}`
  }
}

/** Effect's words for its built-in checks, in the contract's words. */
const asBefore: ReadonlyArray<readonly [RegExp, (...groups: Array<string>) => string]> = [
  [/^a value between (\S+) and (\S+)$/, (min, max) => `a number between ${min} and ${max}`],
  [/^a value with a length of at least (\d+)$/, (n) => `a string at least ${n} character(s) long`],
  [/^a value with a length of at most (\d+)$/, (n) => `a string at most ${n} character(s) long`],
  [/^a value greater than or equal to 0$/, () => "a non-negative number"],
  [/^a value greater than or equal to (\S+)$/, (n) => `a number greater than or equal to ${n}`],
  [/^a value less than or equal to (\S+)$/, (n) => `a number less than or equal to ${n}`]
]

const worded = (expected: string) => {
  for (const [pattern, word] of asBefore) {
    const match = pattern.exec(expected)
    if (match !== null) return word(...match.slice(1))
  }
  return expected
}

/** A message annotation on the schema wins over the default wording: the schema's author said it for that field. */
const ownMessage = (ast: SchemaAST.AST): string | undefined => {
  const message = ast.annotations?.message
  if (typeof message === "string") return message
  const checks = ast.checks
  if (checks) {
    for (const check of checks) {
      const annotated = check.annotations?.message
      if (typeof annotated === "string") return annotated
    }
  }
  return undefined
}

/** The property names a struct accepts, as the "is unexpected" message lists them. */
const expectedKeys = (ast: SchemaAST.AST): string =>
  ast._tag === "Objects" ? ast.propertySignatures.map((property) => JSON.stringify(property.name)).join(" | ") : ""

/**
 * Every leaf of a decoding failure with its path and message: `is missing`, `is unexpected,
 * expected: "a" | "b"`, a check's own message, or `Expected string, actual 1`. Effect 4's own
 * formatters word these differently ("Missing key", "Expected a string..."); the contract's
 * `issues` keep the words they had, so clients matching them see no change.
 */
export const issuesOf = (issue: SchemaIssue.Issue): Array<InputIssue> => {
  const out: Array<InputIssue> = []
  const walk = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>, parent: SchemaAST.AST | undefined) => {
    switch (issue._tag) {
      case "Pointer":
        return walk(issue.issue, [...path, ...issue.path], parent)
      case "Composite":
        for (const inner of issue.issues) walk(inner, path, issue.ast)
        return
      case "AnyOf":
        if (issue.issues.length === 0) {
          out.push({ path, message: ownMessage(issue.ast) ?? `Expected ${expectedOf(issue.ast)}${actualOf(issue)}` })
          return
        }
        for (const inner of issue.issues) walk(inner, path, issue.ast)
        // Effect reports only the members the value could be; the contract's issues also say that an
        // optional field's value is not `undefined`.
        if ("input" in issue && issue.input !== undefined && issue.ast.types.some((t) => t._tag === "Undefined")) {
          out.push({ path, message: `Expected undefined${actualOf(issue)}` })
        }
        return
      case "Encoding":
        return walk(issue.issue, path, issue.ast)
      case "Filter": {
        const { message, expected } = issue.filter.annotations ?? {}
        if (typeof message === "string") out.push({ path, message })
        else if (typeof expected === "string" && issue.issue._tag === "InvalidValue" && !issue.issue.annotations) {
          out.push({ path, message: `Expected ${worded(expected)}${actualOf(issue.issue)}` })
        } else walk(issue.issue, path, parent)
        return
      }
      case "MissingKey":
        out.push({ path, message: issue.annotations?.messageMissingKey ?? "is missing" })
        return
      case "UnexpectedKey": {
        const keys = expectedKeys(issue.ast)
        out.push({ path, message: keys.length > 0 ? `is unexpected, expected: ${keys}` : "is unexpected" })
        return
      }
      case "InvalidType":
        out.push({ path, message: ownMessage(issue.ast) ?? `Expected ${expectedOf(issue.ast)}${actualOf(issue)}` })
        return
      case "InvalidValue": {
        const message = issue.annotations?.message ?? issue.annotations?.expected
        out.push({ path, message: typeof message === "string" ? message : "is invalid" })
        return
      }
      case "Forbidden":
        out.push({ path, message: issue.annotations?.message ?? "is forbidden" })
        return
      case "OneOf":
        out.push({ path, message: `Expected exactly one of ${expectedOf(issue.ast)}${actualOf(issue)}` })
        return
    }
  }
  walk(issue, [], undefined)
  return out
}
