import { Effect, Layer } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { AuthenticatedProvider } from "../Domain/Provider.js"
import { CalendarFeeds } from "./CalendarFeeds.js"
import { CalendarImport } from "./CalendarImport.js"
import { ProviderOffer } from "./Offer.js"
import { ProviderAuthenticationLive } from "./ProviderAuth.js"
import { ProviderCalendar } from "./ProviderCalendar.js"
import { ProviderCancellations } from "./ProviderCancel.js"

const withProvider = <A, E, R>(f: (providerId: string) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(AuthenticatedProvider, (provider) => f(provider.id))

export const ProviderLive = HttpApiBuilder.group(Api, "provider", (handlers) =>
  Effect.gen(function* () {
    const calendar = yield* ProviderCalendar
    const feeds = yield* CalendarFeeds
    const imports = yield* CalendarImport
    const cancellations = yield* ProviderCancellations
    const offer = yield* ProviderOffer
    return handlers
      .handle("bookings", ({ query }) => withProvider((id) => calendar.bookings(id, query)))
      .handle("cancelBooking", ({ params, payload, headers }) =>
        withProvider((id) => cancellations.cancel(id, params.booking_id, payload, headers["idempotency-key"]))
      )
      .handle("createBlock", ({ payload }) => withProvider((id) => calendar.createBlock(id, payload)))
      .handle("blocks", () => withProvider(calendar.blocks))
      .handle("deleteBlock", ({ params }) => withProvider((id) => calendar.deleteBlock(id, params.block_id)))
      .handle("workingHours", () => withProvider(calendar.workingHours))
      .handle("setWorkingHours", ({ payload }) => withProvider((id) => calendar.setWorkingHours(id, payload)))
      .handle("calendarFeed", () => withProvider(feeds.calendarFeed))
      .handle("rotateCalendarFeed", () => withProvider(feeds.rotateFeed))
      .handle("revokeCalendarFeed", () => withProvider(feeds.revokeFeed))
      .handle("setCalendarImport", ({ payload }) => withProvider((id) => imports.register(id, payload.url)))
      .handle("calendarImport", () => withProvider(imports.status))
      .handle("removeCalendarImport", () => withProvider(imports.remove))
      .handle("services", () => withProvider(offer.services))
      .handle("editService", ({ params, payload }) =>
        Effect.flatMap(AuthenticatedProvider, (editor) => offer.editService(editor, params.service_id, payload))
      )
      .handle("setAreas", ({ payload }) =>
        Effect.flatMap(AuthenticatedProvider, (editor) => offer.setAreas(editor, payload))
      )
      .handle("setCancellationPolicy", ({ payload }) =>
        Effect.flatMap(AuthenticatedProvider, (editor) => offer.setPolicy(editor, payload))
      )
      .handle("offerChanges", ({ query }) => withProvider((id) => offer.changes(id, query)))
  })
).pipe(
  Layer.provide([
    ProviderCalendar.Default,
    CalendarFeeds.Default,
    CalendarImport.Default,
    ProviderCancellations.Default,
    ProviderOffer.Default,
    ProviderAuthenticationLive
  ])
)
