export interface SqlSummary {
  /** The statement's first keyword: SELECT, INSERT, UPDATE, DELETE, WITH, BEGIN, … */
  readonly operation: string
  /** The operation and the first table it names, as a span is named: "SELECT bookings". */
  readonly summary: string
}

const firstWord = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/
const firstTable = /\b(?:FROM|INTO|UPDATE|JOIN)\s+("?[A-Za-z_][A-Za-z0-9_.]*"?)/i

/**
 * Statements are a closed set of texts (placeholders, never values), so each is read once;
 * the cache is bounded for texts that vary with a list's length.
 */
const summaries = new Map<string, SqlSummary>()

/** What a statement does, read off its text: never its parameters, which are not in the text. */
export const summaryOf = (text: string): SqlSummary => {
  const known = summaries.get(text)
  if (known !== undefined) return known
  const operation = firstWord.exec(text)?.[1]?.toUpperCase() ?? "SQL"
  const table = firstTable.exec(text)?.[1]?.replaceAll('"', "")
  const summary = { operation, summary: table === undefined ? operation : `${operation} ${table}` }
  if (summaries.size < 1000) summaries.set(text, summary)
  return summary
}
