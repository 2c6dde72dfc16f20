import { Layer } from "effect"
import { NotifierLive } from "../Bookings/NotifierLive.js"
import { CapabilitiesRefreshLive } from "../Capabilities/Document.js"
import { HoldSweepLive } from "../Holds/Holds.js"
import { NotificationDispatcherLive } from "../Notifications/Dispatcher.js"
import { PartnerTokenRefreshLive } from "../Partners/Authentication.js"
import { PersonalDataRetentionLive } from "../PersonalData/PersonalData.js"
import { CalendarImportPollLive } from "../Providers/CalendarImport.js"
import { ProviderTokenRefreshLive } from "../Providers/ProviderAuth.js"
import { BookingOptionSweepLive } from "../Shared/BookingOptions.js"
import { IdempotencyCleanupLive } from "../Shared/Idempotency.js"
import { WebhookDispatcherLive } from "../Webhooks/Webhooks.js"

/**
 * Every loop the server runs beside its requests, each a layer over the service it drives (the
 * same instance the handlers use). A server composes the ones it wants; a test leaves one out to
 * drive that service's passes itself.
 */
export const backgroundLoops = {
  capabilitiesRefresh: CapabilitiesRefreshLive,
  notificationDispatcher: NotificationDispatcherLive.pipe(Layer.provide(NotifierLive)),
  webhookDispatcher: WebhookDispatcherLive,
  partnerTokenRefresh: PartnerTokenRefreshLive,
  providerTokenRefresh: ProviderTokenRefreshLive,
  idempotencyCleanup: IdempotencyCleanupLive,
  bookingOptionSweep: BookingOptionSweepLive,
  calendarImport: CalendarImportPollLive,
  holdSweep: HoldSweepLive,
  personalDataRetention: PersonalDataRetentionLive
} as const

export type BackgroundLoop = keyof typeof backgroundLoops

/** The named loops, composed. */
export const loopsLive = (names: ReadonlyArray<BackgroundLoop>) =>
  Layer.mergeAll(Layer.empty, ...names.map((name) => backgroundLoops[name]))

/** All of them: what a production server runs. */
export const BackgroundLoopsLive = loopsLive(Object.keys(backgroundLoops) as ReadonlyArray<BackgroundLoop>)
