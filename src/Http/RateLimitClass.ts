import { Context } from "effect"
import { annotatedOperations } from "./OperationDocs.js"

/** The per-minute limits: each limited endpoint counts against one of them. */
export const limitedEndpoints = ["search", "confirm", "requests"] as const
export type LimitedEndpoint = (typeof limitedEndpoints)[number]

/**
 * The limit an endpoint counts against, annotated on the endpoint itself: its handler consumes
 * it, and its answers carry RateLimit and RateLimit-Policy in the OpenAPI document. Pure, so the
 * typed client can import the Api.
 */
export class RateLimitClass extends Context.Service<RateLimitClass, LimitedEndpoint>()("Booking/RateLimitClass") {}

/** The operation ids (`group.endpoint`) of the groups' endpoints that carry a RateLimitClass. */
export const limitedOperationsOf = (groups: Parameters<typeof annotatedOperations>[0]): ReadonlySet<string> =>
  new Set(annotatedOperations(groups, RateLimitClass).keys())
