import { Effect } from "effect"
import { refreshWith } from "../Bookings/Refusals.js"
import { ProviderUnavailable, TermsChanged } from "../Domain/Booking.js"
import { DatabaseUnavailable } from "../Domain/Errors.js"
import type { BookingOption } from "../Domain/Search.js"
import { mcpSurface } from "../Domain/Surface.js"
import { knownTimeZone } from "../Domain/Zone.js"
import { optionBody } from "../Search/OptionBody.js"
import { BookingOptions } from "../Shared/BookingOptions.js"
import { Calendar, liveCalendar } from "../Shared/Calendar.js"
import { failLogged } from "../Shared/FailureSummary.js"

/**
 * An option's full detail for its id, as the search that issued it worded it: the id is verified
 * (tamper-evident, unexpired), then the provider's service is read as the search reads it. The
 * slot is the id's own; whether it is still free only a confirmation proves, as for any option.
 */
export const optionDetail = (token: string, now: Date) =>
  Effect.gen(function* () {
    const bookingOptions = yield* BookingOptions
    const calendar = yield* Calendar
    const claims = yield* bookingOptions.verify(token, now)
    const refresh = refreshWith(mcpSurface)
    const candidates = yield* calendar
      .availability({
        verticalId: claims.verticalId,
        jobTypeId: claims.jobTypeId,
        postcode: claims.originPostcode,
        destinationPostcode: claims.destinationPostcode,
        range: { start: claims.slotStart, end: claims.slotEnd },
        calendar: liveCalendar,
        now: now.getTime()
      })
      .pipe(
        Effect.catchTag(
          "SqlError",
          failLogged(
            "get_booking_option could not read supply",
            () => new DatabaseUnavailable({ safe_next_step: "Ask for the option again in a moment." })
          )
        )
      )
    const candidate = candidates.find(
      (each) => each.providerId === claims.providerId && each.serviceId === claims.serviceId
    )
    if (candidate === undefined) {
      return yield* new ProviderUnavailable({
        ...refresh,
        issues: ["booking_option_id: the provider no longer offers this service here"]
      })
    }
    if (candidate.termsVersion !== claims.termsVersion) {
      return yield* new TermsChanged({ ...refresh, issues: ["booking_option_id: the provider's terms changed"] })
    }
    const quote = {
      amountSek: claims.amountSek,
      durationMinutes: (claims.slotEnd - claims.slotStart) / 60_000,
      ...(claims.unitPriceSek === undefined ? {} : { unitPriceSek: claims.unitPriceSek }),
      ...(claims.unit === undefined ? {} : { unit: claims.unit }),
      ...(claims.quantity === undefined ? {} : { quantity: claims.quantity })
    }
    const option: BookingOption = optionBody(
      { jobTypeId: claims.jobTypeId, timeZone: knownTimeZone(claims.timeZone), verticalId: claims.verticalId },
      { candidate, quote, slot: { start: claims.slotStart, end: claims.slotEnd } },
      { token, expiresAt: new Date(claims.expiresAt) },
      now
    )
    return option
  })
