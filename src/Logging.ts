import { Cause, HashMap, Inspectable, Logger, type LogLevel } from "effect"

const textOf = (message: unknown): string =>
  Array.isArray(message)
    ? message.map(textOf).join(" ")
    : typeof message === "string"
      ? message
      : Inspectable.toStringUnknown(message, 0)

const reserved = new Set(["time", "level", "msg", "error"])

/** `debug`, `info`, `warn`, `error`, `fatal`: as log collectors spell the levels. */
const levelName = (level: LogLevel.LogLevel) => (level._tag === "Warning" ? "warn" : level._tag.toLowerCase())

/**
 * One flat JSON object per line: `time`, `level`, `msg`, then the line's annotations as fields
 * (`request_id`, `method`, `route`, `status`, `duration_ms` on the access line) and, for a
 * failure, `error`. Nothing is nested, so a collector indexes every field as it is.
 */
export const jsonLogger = Logger.make(({ annotations, cause, date, logLevel, message }) => {
  const line: Record<string, unknown> = { time: date.toISOString(), level: levelName(logLevel), msg: textOf(message) }
  for (const [key, value] of HashMap.toEntries(annotations)) {
    if (reserved.has(key)) continue
    line[key] = value === null || ["string", "number", "boolean"].includes(typeof value) ? value : textOf(value)
  }
  if (!Cause.isEmpty(cause)) line.error = Cause.pretty(cause)
  return JSON.stringify(line)
})

/**
 * Writes log lines to `stream` in batches, one write per turn of the event loop. On Linux a write
 * to a pipe is synchronous: one write per line made every request wait on the log reader. What is
 * still pending when the process exits is written then, so no line is lost.
 */
export const batchedLines = (stream: NodeJS.WritableStream) => {
  const pending: Array<string> = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const text = `${pending.join("\n")}\n`
    pending.length = 0
    stream.write(text)
  }
  process.on("exit", flush)
  return Logger.map(jsonLogger, (line) => {
    pending.push(line)
    if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  })
}
