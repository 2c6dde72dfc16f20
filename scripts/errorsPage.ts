import type { CatalogueFacts } from "../src/Domain/Errors.js"

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ")

/** docs/errors.md as the catalogue writes it: `npm run docs:errors` writes it, a test compares it. */
export const errorsPage = (catalogue: ReadonlyArray<CatalogueFacts>) =>
  [
    "<!-- Written by `npm run docs:errors` from the error classes (src/Errors/Catalogue.ts); edit the classes, not this file. -->",
    "",
    "# Errors",
    "",
    "Every error answer has the contract's body (`ok: false`, `error`, `status`, optional `issues` and",
    "`safe_next_step`, and the details a code names). This is every `error` value the service answers",
    "with, also served as JSON by `GET /api/public/errors` (no token, cacheable).",
    "",
    "**Retry safe** means that sending the same request again, with the same idempotency key, is safe",
    "and can succeed: nothing was done, or a retry returns what was done. Where it says no, sending the",
    "same request again unchanged does not help: follow the step instead. No retry ever books twice.",
    "",
    "| `error` | status | meaning | retry safe | what to do |",
    "| --- | --- | --- | --- | --- |",
    ...catalogue.map(
      (entry) =>
        `| \`${entry.error}\` | ${entry.status} | ${cell(entry.meaning)} | ${entry.retry_safe ? "yes" : "no"} | ${cell(entry.recovery)} |`
    ),
    ""
  ].join("\n")
