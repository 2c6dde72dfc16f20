import { Effect, Layer } from "effect"
import { Notifier } from "../Notifications/Notifier.js"
import { NotificationSubjects } from "../Notifications/PartnerEvents.js"
import { RequestsRepo } from "../Requests/RequestsRepo.js"
import { BookingsRepo } from "./BookingsRepo.js"

/** The notifications' subjects read by the tables' owners: the bookings' and the requests' repos. */
export const NotificationSubjectsLive = Layer.effect(
  NotificationSubjects,
  Effect.gen(function* () {
    const bookings = yield* BookingsRepo
    const requests = yield* RequestsRepo
    return { booking: bookings.eventFacts, lockRequest: requests.lockOwner }
  })
).pipe(Layer.provide([BookingsRepo.Default, RequestsRepo.Default]))

/** The notifier every feature hands its messages to, one instance for the server (layers are built once). */
export const NotifierLive = Notifier.Default.pipe(Layer.provide(NotificationSubjectsLive))
