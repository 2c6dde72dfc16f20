import { Effect, Metric } from "effect"

/** Counters are exported as totals that only grow. */
const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })

const durationBoundaries = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export const httpRequests = counter("http_requests_total", "HTTP requests by route, method and status")
export const httpDuration = Metric.histogram("http_request_duration_seconds", {
  boundaries: Metric.boundariesFromIterable(durationBoundaries),
  description: "HTTP request latency by route"
})
export const bookingsConfirmed = counter("bookings_confirmed_total", "Bookings newly confirmed")
export const bookingConflicts = counter("booking_conflicts_total", "Confirms answered 409, by error code")
export const notifications = counter("notifications_total", "Notification attempts by channel and outcome")
/** The channel and outcome pairs the notifier counts. */
export const notificationLabels: ReadonlyArray<Readonly<Record<string, string>>> = [
  { channel: "none", outcome: "skipped" },
  ...["email", "webhook"].flatMap((channel) => ["sent", "retry", "failed"].map((outcome) => ({ channel, outcome })))
]

export const rateLimited = counter("rate_limited_total", "Requests refused by the rate limiter, by endpoint")
export const rateLimitStoreFailures = counter(
  "rate_limit_store_failures_total",
  "Requests let through because the rate-limit store failed or did not answer in time"
)

/** Each label set is exported at 0 from the start, so a rate or an alert works before the first event. */
export const presentFromStart = (
  counter: Metric.Counter<number>,
  labelSets: ReadonlyArray<Readonly<Record<string, string>>> = [{}]
) => Effect.forEach(labelSets, (labels) => Metric.update(Metric.withAttributes(counter, labels), 0), { discard: true })
