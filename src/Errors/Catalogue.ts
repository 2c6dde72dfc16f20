import { SchemaAST } from "effect"
import * as HttpApi from "effect/http-api/HttpApi"
import { Api } from "../Api.js"
import { type CatalogueFacts, catalogueFactsOf, listenerErrors } from "../Domain/Errors.js"
import { mcpErrorCodes } from "../Mcp/Errors.js"

/** The `error` literal of an error body's wire form (`errorBody`), whatever the schema wraps. */
const errorCodeOf = (ast: SchemaAST.AST): string | undefined => {
  const encoded = SchemaAST.toEncoded(ast)
  if (!SchemaAST.isObjects(encoded)) return undefined
  const code = encoded.propertySignatures.find((property) => property.name === "error")?.type
  return code !== undefined && SchemaAST.isLiteral(code) && typeof code.literal === "string" ? code.literal : undefined
}

/**
 * Every error the Api can answer with, read from its endpoints' and middlewares' error schemas
 * (the router's own errors are the ContractErrors middleware's), the listener's own, and those of
 * /mcp, which is served beside the Api; by status and then code.
 */
export const errorCatalogue = (): ReadonlyArray<CatalogueFacts> => {
  const codes = new Set<string>([...listenerErrors.map((error) => error.identifier), ...mcpErrorCodes])
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ errors }) => {
      for (const schemas of errors.values())
        for (const schema of schemas) {
          const code = errorCodeOf(schema.ast)
          if (code !== undefined) codes.add(code)
        }
    }
  })
  return [...codes]
    .map((code) => catalogueFactsOf(code)!)
    .sort((a, b) => a.status - b.status || a.error.localeCompare(b.error))
}
