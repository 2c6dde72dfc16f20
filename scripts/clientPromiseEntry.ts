/**
 * Builds the client's `/promise` entry into a folder: src/ClientPromise.ts bundled by esbuild
 * with the Effect code it reaches (one ES module; nothing to install beside it), and declarations
 * that name no `effect`: the wire types openapi-typescript generates from the server's own
 * OpenAPI document, and the client's methods over them (below). scripts/client-pack.ts packs
 * them; test/ClientPromise.test.ts builds them the same way.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { build } from "esbuild"
import openapiTS, { astToString } from "openapi-typescript"
import { Api } from "../src/Api.js"
import { openApiDocument } from "../src/Http/OpenApiDocument.js"

const root = join(import.meta.dirname, "..")

/** The entry's files, relative to the folder they are built in (the package's `dist/`). */
export const promiseEntry = { js: "promise.js", types: "promise.d.ts", wireTypes: "openapi.d.ts" } as const

/**
 * The entry's declarations. Each method's body and answer are the operation's JSON in the
 * document (`operations["bookings.confirm"]`), so they follow the Api with no second copy;
 * test/ClientPromise.test.ts type-checks a partner's calls against them.
 */
const declarations = `import type { operations } from "./openapi.js"

export type { components, operations, paths } from "./openapi.js"

type Responses<Op extends keyof operations> = operations[Op]["responses"]
type Json<R> = R extends { content: { "application/json": infer B } } ? B : never

/** The JSON an operation answers with when it succeeds (its 2xx bodies). */
export type Answer<Op extends keyof operations> = {
  [S in keyof Responses<Op>]: S extends 200 | 201 | 202 ? Json<Responses<Op>[S]> : never
}[keyof Responses<Op>]

/** The JSON body an operation takes. */
export type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { "application/json": infer B } }
}
  ? B
  : never

/** Every error body the contract defines (the same shape for all: ok false, error, status, details). */
export type ErrorBody = {
  [Op in keyof operations]: {
    [S in keyof Responses<Op>]: S extends 200 | 201 | 202 | 304 ? never : Json<Responses<Op>[S]>
  }[keyof Responses<Op>]
}[keyof operations]

export interface BookingClientOptions {
  /** Where the API is, e.g. \`https://api.example.se\` (no trailing path). */
  readonly baseUrl: string
  /** The partner API token, sent as \`Authorization: Bearer <token>\`. */
  readonly token?: string | undefined
}

/** What an idempotent call may carry beside its body. */
export interface IdempotentCall {
  /** Sent as the \`Idempotency-Key\` header; a retry with the same key replays the first answer. */
  readonly idempotencyKey?: string | undefined
}

/** A refusal in the contract's words: the HTTP status and the error body as the server sent it. */
export declare class BookingApiError extends Error {
  readonly name: "BookingApiError"
  readonly status: number
  readonly body: ErrorBody
}

/** An answer the contract does not describe (a proxy's page, a body the endpoint's schema refuses). */
export declare class UnexpectedAnswerError extends Error {
  readonly name: "UnexpectedAnswerError"
  readonly status: number
  readonly text: string
}

/**
 * The partner API's operations. Each resolves to the answer's JSON as the server sent it, once the
 * endpoint's schema has accepted it, and rejects with a BookingApiError when the server refuses.
 */
export interface BookingClient {
  capabilities(): Promise<Answer<"capabilities.capabilities">>
  search(body: Body<"search.search">): Promise<Answer<"search.search">>
  confirm(body: Body<"bookings.confirm">, call?: IdempotentCall): Promise<Answer<"bookings.confirm">>
  /** A booking by its \`booking.id\` or \`request_id\`, personal data redacted. */
  status(bookingId: string): Promise<Answer<"bookings.status">>
  /** Cancels a booking (\`dry_run: true\` previews the fee and changes nothing). */
  cancel(bookingId: string, body: Body<"bookings.cancel">, call?: IdempotentCall): Promise<Answer<"bookings.cancel">>
  /** Moves a booking to a new option of the same provider and service, keeping its id. */
  reschedule(
    bookingId: string,
    body: Body<"bookings.reschedule">,
    call?: IdempotentCall
  ): Promise<Answer<"bookings.reschedule">>
  createRequest(body: Body<"requests.create">, call?: IdempotentCall): Promise<Answer<"requests.create">>
  /** A follow-up request by its \`request.id\` (or \`session_id\`); never a booking. */
  requestStatus(requestId: string): Promise<Answer<"requests.status">>
  readonly webhooks: {
    create(body: Body<"webhooks.create">): Promise<Answer<"webhooks.create">>
    list(): Promise<Answer<"webhooks.list">>
    remove(webhookId: string): Promise<Answer<"webhooks.remove">>
    rotateSecret(webhookId: string): Promise<Answer<"webhooks.rotateSecret">>
    test(webhookId: string): Promise<Answer<"webhooks.test">>
    deliveries(webhookId: string): Promise<Answer<"webhooks.deliveries">>
    retry(webhookId: string, deliveryId: string): Promise<Answer<"webhooks.retry">>
  }
}

export declare const createBookingClient: (options: BookingClientOptions) => BookingClient
`

/** Writes the entry's three files into `dir`. */
export const buildPromiseEntry = async (dir: string) => {
  await build({
    entryPoints: [join(root, "src", "ClientPromise.ts")],
    outfile: join(dir, promiseEntry.js),
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    logLevel: "warning"
  })
  const document = openApiDocument(Api, "https://api.example.se") as Parameters<typeof openapiTS>[0]
  writeFileSync(join(dir, promiseEntry.wireTypes), astToString(await openapiTS(document)))
  writeFileSync(join(dir, promiseEntry.types), declarations)
}
