import { Context } from "effect"

/**
 * How a `safe_next_step` names the action it sends the caller to. An assistant repeats the step,
 * so over REST it names the endpoint and over MCP the tool it can call.
 */
export interface Surface {
  readonly search: string
  readonly confirm: string
  readonly hold: string
  readonly releaseHold: (holdId: string) => string
  readonly bookingStatus: (bookingId: string) => string
  readonly cancelBooking: (bookingId: string) => string
  readonly rescheduleBooking: (bookingId: string) => string
  readonly createRequest: string
  readonly requestStatus: (requestId: string) => string
}

export const restSurface: Surface = {
  search: "POST /api/public/booking-options",
  confirm: "POST /api/public/bookings",
  hold: "POST /api/public/holds",
  releaseHold: (holdId) => `DELETE /api/public/holds/${holdId}`,
  bookingStatus: (bookingId) => `GET /api/public/bookings/${bookingId}`,
  cancelBooking: (bookingId) => `POST /api/public/bookings/${bookingId}/cancel`,
  rescheduleBooking: (bookingId) => `POST /api/public/bookings/${bookingId}/reschedule`,
  createRequest: "POST /api/public/requests",
  requestStatus: (requestId) => `GET /api/public/requests/${requestId}`
}

export const mcpSurface: Surface = {
  search: "the search_booking_options tool",
  confirm: "the confirm_booking tool",
  hold: "the hold_booking_option tool",
  releaseHold: (holdId) => `the release_hold tool with hold_id "${holdId}"`,
  bookingStatus: (bookingId) => `the get_booking_status tool with booking_id "${bookingId}"`,
  cancelBooking: (bookingId) => `the cancel_booking tool with booking_id "${bookingId}"`,
  rescheduleBooking: (bookingId) => `the reschedule_booking tool with booking_id "${bookingId}"`,
  createRequest: "the create_follow_up_request tool",
  requestStatus: (requestId) => `the get_follow_up_request tool with request_id "${requestId}"`
}

/** The surface of the call being answered: REST unless the MCP route says otherwise. */
export const CurrentSurface = Context.Reference<Surface>("Booking/CurrentSurface", {
  defaultValue: () => restSurface
})
