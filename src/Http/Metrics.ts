import { Effect, Metric } from "effect"

const durationBoundaries = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export const httpRequests = Metric.counter("http_requests_total", {
  description: "HTTP requests by route, method and status",
  incremental: true
})
export const httpDuration = Metric.histogram("http_request_duration_seconds", {
  boundaries: Metric.boundariesFromIterable(durationBoundaries),
  description: "HTTP request latency by route"
})
export const bookingsConfirmed = Metric.counter("bookings_confirmed_total", {
  description: "Bookings newly confirmed",
  incremental: true
})
export const bookingConflicts = Metric.counter("booking_conflicts_total", {
  description: "Confirms answered 409, by error code",
  incremental: true
})
export const notifications = Metric.counter("notifications_total", {
  description: "Notification attempts by channel and outcome",
  incremental: true
})
/** The channel and outcome pairs the notifier counts. */
export const notificationLabels: ReadonlyArray<Readonly<Record<string, string>>> = [
  { channel: "none", outcome: "skipped" },
  ...["email", "webhook"].flatMap((channel) => ["sent", "retry", "failed"].map((outcome) => ({ channel, outcome })))
]

export const rateLimited = Metric.counter("rate_limited_total", {
  description: "Requests refused by the rate limiter, by endpoint",
  incremental: true
})
export const rateLimitStoreFailures = Metric.counter("rate_limit_store_failures_total", {
  description: "Requests let through because the rate-limit store failed or did not answer in time",
  incremental: true
})

/** Each label set is exported at 0 from the start, so a rate or an alert works before the first event. */
export const presentFromStart = (
  counter: Metric.Counter<number>,
  labelSets: ReadonlyArray<Readonly<Record<string, string>>> = [{}]
) => Effect.forEach(labelSets, (labels) => Metric.update(Metric.withAttributes(counter, labels), 0), { discard: true })
