import { Cause, Context, type Fiber, Formatter, Logger, type LogLevel, Option, References } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"

/**
 * Fields one log line carries as its own, beside `msg`: `Effect.logInfo("request", new
 * LogFields({ method, route, status }))` writes them as annotations would, without annotating
 * the fiber (two fiber-ref writes) for a single line. Values are scalars, so lines stay flat.
 */
export class LogFields {
  constructor(readonly fields: Readonly<Record<string, string | number | boolean>>) {}
}

const textOf = (message: unknown): string =>
  Array.isArray(message)
    ? message
        .filter((part) => !(part instanceof LogFields))
        .map(textOf)
        .join(" ")
    : typeof message === "string"
      ? message
      : Formatter.format(message)

/** The LogFields of a message (`Effect.logInfo(text, fields)` logs the array [text, fields]). */
const fieldsOf = (message: unknown): ReadonlyArray<LogFields> =>
  Array.isArray(message) ? message.filter((part): part is LogFields => part instanceof LogFields) : []

const reserved = new Set(["time", "level", "msg", "error"])

/**
 * The id of each request being served (see requestObservability). A line logged on a request's
 * fiber, or on a fiber it started, names it as `request_id`: the id is found through the request
 * in the fiber's context, so serving a request writes no log annotation of its own.
 */
const requestIds = new WeakMap<object, string>()

/**
 * The id is kept against the request's source (Node's IncomingMessage): a request the platform
 * derives from it (`HttpServerRequest.modify`, a mounted router's) is another object with the same
 * source, and still finds it.
 */
const keyOf = (request: HttpServerRequest.HttpServerRequest): object =>
  typeof request.source === "object" && request.source !== null ? request.source : request

export const setRequestId = (request: HttpServerRequest.HttpServerRequest, id: string) => {
  requestIds.set(keyOf(request), id)
}

export const requestIdOf = (request: HttpServerRequest.HttpServerRequest): string | undefined =>
  requestIds.get(keyOf(request))

/** The id of the request whose fiber (or descendant) logs the line, if any. */
const requestIdIn = (fiber: Fiber.Fiber<unknown, unknown>): string | undefined => {
  const request = Context.getOption(fiber.context, HttpServerRequest.HttpServerRequest)
  return Option.isSome(request) ? requestIdOf(request.value) : undefined
}

const isScalar = (value: unknown) =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"

/** `debug`, `info`, `warn`, `error`, `fatal`: as log collectors spell the levels. */
const levelName = (level: LogLevel.LogLevel) => level.toLowerCase()

/**
 * One flat JSON object per line: `time`, `level`, `msg`, the `request_id` of the request it was
 * logged for, then the line's annotations and LogFields as fields (`method`, `route`, `status`,
 * `duration_ms` on the access line) and, for a failure, `error`. Nothing is nested, so a
 * collector indexes every field as it is.
 */
export const jsonLogger = Logger.make(({ cause, date, fiber, logLevel, message }) => {
  const line: Record<string, unknown> = { time: date.toISOString(), level: levelName(logLevel), msg: textOf(message) }
  const requestId = requestIdIn(fiber)
  if (requestId !== undefined) line.request_id = requestId
  const annotations = fiber.getRef(References.CurrentLogAnnotations)
  for (const key in annotations) {
    const value = annotations[key]
    if (reserved.has(key)) continue
    line[key] = isScalar(value) ? value : textOf(value)
  }
  for (const { fields } of fieldsOf(message)) {
    for (const key in fields) if (!reserved.has(key)) line[key] = fields[key]
  }
  if (cause.reasons.length > 0) line.error = Cause.pretty(cause)
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

/**
 * Effect's pretty logger with the `request_id` of the request a line was logged for, and the
 * line's LogFields, as the JSON lines carry them. Effect 4's loggers read annotations from the
 * fiber, so these are written as `key=value` after the message instead of among them.
 */
export const withLineFields = <O>(logger: Logger.Logger<unknown, O>) =>
  Logger.make<unknown, O>((options) => {
    const requestId = requestIdIn(options.fiber)
    const fields = fieldsOf(options.message)
    if (requestId === undefined && fields.length === 0) return logger.log(options)
    const parts: Array<string> = [textOf(options.message)]
    if (requestId !== undefined) parts.push(`request_id=${requestId}`)
    for (const part of fields) {
      for (const [key, value] of Object.entries(part.fields)) parts.push(`${key}=${String(value)}`)
    }
    return logger.log({ ...options, message: parts.join(" ") })
  })
