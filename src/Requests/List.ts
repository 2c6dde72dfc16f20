import { Effect, type Option } from "effect"
import { requestsSpecVersion } from "../Domain/Capabilities.js"
import type { RequestListQuery, RequestListResponse } from "../Domain/ListPage.js"
import type { Partner } from "../Domain/Partner.js"
import { CurrentSurface } from "../Domain/Surface.js"
import type { SubjectDeliveryState } from "../Notifications/DeliveryState.js"
import { persistenceUnavailable } from "../Shared/Idempotency.js"
import type { ListCursor } from "../Shared/ListCursor.js"
import { answerWithStates, subjectsOf } from "./Answers.js"
import type { RequestsRepo } from "./RequestsRepo.js"

const listUnreadable =
  "The follow-up requests cannot be listed right now because the database does not answer. This says nothing about any request: do not tell the user one was or was not sent. Retry this page (the same cursor) in a moment."

/** The partner's follow-up requests, last changed first, each as its status lookup answers it. */
export const requestList = (
  requests: RequestsRepo["Service"],
  cursors: ListCursor["Service"],
  statesOf: (subjectIds: ReadonlyArray<string>) => Effect.Effect<Option.Option<ReadonlyArray<SubjectDeliveryState>>>,
  giveUpHours: number
) =>
  Effect.fn("Requests.list")(function* (query: RequestListQuery, partner: Partner["Service"]) {
    const surface = yield* CurrentSurface
    const { rows, nextCursor } = yield* cursors.page(
      "requests",
      partner.id,
      { status: query.status, updatedSince: query.updated_since, cursor: query.cursor, limit: query.limit },
      (from) =>
        requests.listPage(partner.id, from).pipe(Effect.catch(persistenceUnavailable("request", listUnreadable)))
    )
    const states = yield* statesOf(rows.flatMap(subjectsOf))
    const response: RequestListResponse = {
      ok: true,
      spec_version: requestsSpecVersion,
      requests: rows.map((row) => answerWithStates(row, states, surface, giveUpHours)),
      next_cursor: nextCursor
    }
    return response
  })
