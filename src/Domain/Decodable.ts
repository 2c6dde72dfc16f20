import { SchemaAST as AST, Either, Option, ParseResult, type Schema } from "effect"

type Check = (u: unknown) => boolean

/**
 * `u` as decoding checks it, for the schemas whose decoding only checks and never changes a
 * value; undefined for any other, which the caller then decodes. The refinements called are the
 * schema's own, so the rules stay in the schema.
 */
const compile = (ast: AST.AST): Check | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string"
    case "NumberKeyword":
      return (u) => typeof u === "number"
    case "BooleanKeyword":
      return (u) => typeof u === "boolean"
    case "UndefinedKeyword":
      return (u) => u === undefined
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal
    }
    case "Union": {
      const members = ast.types.map(compile)
      if (!members.every((member) => member !== undefined)) return undefined
      return (u) => members.some((member) => member(u))
    }
    case "Refinement": {
      const from = compile(ast.from)
      if (from === undefined) return undefined
      return (u) => from(u) && Option.isNone(ast.filter(u, AST.defaultParseOption, ast))
    }
    case "Transformation": {
      // Only a composition (Schema.compose) passes the value on as it is: both sides check it.
      if (ast.transformation._tag !== "ComposeTransformation") return undefined
      const from = compile(ast.from)
      const to = compile(ast.to)
      if (from === undefined || to === undefined) return undefined
      return (u) => from(u) && to(u)
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0) return undefined
      const properties = ast.propertySignatures.map((property) => ({
        name: property.name,
        isOptional: property.isOptional,
        check: compile(property.type)
      }))
      if (!properties.every((property) => property.check !== undefined)) return undefined
      return (u) => {
        // As decoding does: any object (arrays too), a missing required key read as undefined.
        if (typeof u !== "object" || u === null) return false
        for (const { name, isOptional, check } of properties) {
          const present = Object.hasOwn(u, name)
          if (!present && isOptional) continue
          if (!check!(present ? (u as Record<PropertyKey, unknown>)[name] : undefined)) return false
        }
        return true
      }
    }
  }
  return undefined
}

/**
 * Whether `Schema.decodeUnknownEither(schema)` would accept `u`, told without decoding it: for a
 * struct of strings, numbers, literals and their refinements and brands (the signed option's
 * claims, say) it calls the schema's own checks on `u` itself, where decoding copies every struct
 * and wraps every field in an Either, several times the cost. A schema with any other part is
 * decoded.
 */
export const decodable = <A, I, R>(schema: Schema.Schema<A, I, R>): ((u: unknown) => u is A) => {
  const compiled = compile(schema.ast)
  if (compiled !== undefined) return compiled as (u: unknown) => u is A
  const decode = ParseResult.decodeUnknownEither(schema as Schema.Schema<A, I>)
  return (u: unknown): u is A => Either.isRight(decode(u))
}
