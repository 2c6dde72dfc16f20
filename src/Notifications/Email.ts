import { Effect, Option, Redacted } from "effect"
import { AppConfig } from "../AppConfig.js"
import { DeliveryFailed, errorCode, fail } from "./Delivery.js"
import type { ClaimedRow } from "./OutboxRepo.js"

const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 }

const couldNotConnect = "could not connect to the SMTP server"

const smtpProblems: Record<string, string> = {
  ECONNECTION: couldNotConnect,
  ETIMEDOUT: "the SMTP server did not answer in time",
  ESOCKET: "the SMTP connection failed",
  EAUTH: "the SMTP server refused the login",
  ETLS: "the SMTP TLS handshake failed",
  EENVELOPE: "the SMTP server refused the sender or recipient",
  EMESSAGE: "the SMTP server refused the message",
  EPROTOCOL: "the SMTP server broke the protocol"
}

// Server replies can quote the addresses, so only error codes and the reply code are kept.
const smtpProblem = (error: unknown) => {
  const fields = (error ?? {}) as { code?: unknown; originalCode?: unknown; responseCode?: unknown; syscall?: unknown }
  const code = errorCode(fields.code)
  const cause = errorCode(fields.originalCode)
  const problem =
    fields.syscall === "connect" || fields.syscall === "getaddrinfo"
      ? couldNotConnect
      : ((code && smtpProblems[code]) ?? "sending the e-mail failed")
  const detail = [cause ?? code, typeof fields.responseCode === "number" ? fields.responseCode : undefined]
    .filter((part) => part !== undefined)
    .join(" ")
  return detail === "" ? problem : `${problem} (${detail})`
}

/** E-mail over SMTP_URL, closed with the scope; without SMTP_URL e-mail is off and says so once. */
export const makeEmail = Effect.gen(function* () {
  const config = yield* AppConfig
  // nodemailer (a megabyte of modules) is loaded only by a server that sends e-mail.
  const mailer = Option.isNone(config.smtpUrl)
    ? Option.none()
    : Option.some(
        (yield* Effect.promise(() => import("nodemailer"))).default.createTransport({
          url: Redacted.value(config.smtpUrl.value),
          ...SMTP_TIMEOUTS
        })
      )
  if (Option.isSome(mailer)) {
    yield* Effect.addFinalizer(() => Effect.sync(() => mailer.value.close()))
  } else {
    yield* Effect.logWarning("SMTP_URL is not set: e-mail notifications are skipped")
  }

  const send = (row: ClaimedRow) => {
    if (Option.isNone(mailer)) return fail("SMTP_URL is not configured")
    if (row.address === null) return fail("the row has no e-mail address")
    const to = { name: "", address: row.address }
    return Effect.tryPromise({
      try: () => mailer.value.sendMail({ from: config.notifyFrom, to, subject: row.subject, text: row.body }),
      catch: (error) => new DeliveryFailed({ reason: smtpProblem(error) })
    }).pipe(
      // What was sent, never to whom or what it said.
      Effect.withSpan("Email.send", {
        kind: "client",
        attributes: {
          "notification.id": row.id,
          "notification.topic": row.topic,
          "notification.recipient": row.recipientRole
        }
      })
    )
  }

  return { configured: Option.isSome(mailer), send } as const
})
