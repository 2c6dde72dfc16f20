import { Effect, Layer } from "effect"
import { DirectQuery } from "../Database/Database.js"
import { summaryOf } from "./SqlSummary.js"

/**
 * DirectQuery with a client span per statement, named by what it does ("SELECT bookings"), with
 * the statement's text (placeholders only: its parameters are never read); put in place of the
 * plain one only when tracing is on. Statements run as `yield* sql\`…\`` (in transactions) get
 * Effect's own span with the same attributes (see Tracing.ts).
 */
export const StatementSpansLive = Layer.effect(
  DirectQuery,
  Effect.map(DirectQuery, (query): DirectQuery["Service"] => (statement) => {
    const [text] = statement.compile()
    const { operation, summary } = summaryOf(text)
    return Effect.withSpan(query(statement), summary, {
      kind: "client",
      attributes: {
        "db.system.name": "postgresql",
        "db.operation.name": operation,
        "db.query.summary": summary,
        "db.query.text": text
      }
    })
  })
)
