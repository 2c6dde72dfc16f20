/** What an outage answer of a partner's webhook call may say (src/Shared/Unavailable.ts picks one). */

const tryAgain = "Try again in a moment."

/** What an outage answer of each change may say: nothing changed, or not known whether it did. */
export const outageSteps = {
  create: {
    notChanged: "The database does not answer, so nothing was registered. Register again once the service answers.",
    unknown:
      "The database did not answer in time, so it is not known whether the webhook was registered. Once the service answers, list your webhooks (GET /api/public/webhooks): if this url is there, its secret never reached you, so rotate it (POST /api/public/webhooks/{id}/rotate-secret) or delete that webhook and register again; if it is not there, register again."
  },
  remove: (id: string) => ({
    notChanged:
      "The database does not answer, so nothing was deleted. Delete the webhook again once the service answers.",
    unknown: `The database did not answer in time, so it is not known whether webhook ${id} was deleted. Once the service answers, delete it again: a webhook already deleted answers 404 webhook_not_found, and GET /api/public/webhooks lists what remains.`
  }),
  rotateSecret: {
    notChanged:
      "The database does not answer, so the secret was not rotated: the current one still signs. Rotate again once the service answers.",
    unknown:
      "The database did not answer in time, so it is not known whether the secret was rotated. If it was, deliveries are signed with a new secret that never reached you (beside the old one, for 24 hours). Once the service answers, rotate again and switch at once to the secret that answer returns."
  },
  test: (id: string) => ({
    notChanged:
      "The database does not answer, so no test delivery was queued. Send the test again once the service answers.",
    unknown: `The database did not answer in time, so it is not known whether a test delivery was queued (a test also turns a disabled webhook on again). Once the service answers, see GET /api/public/webhooks/${id}/deliveries; another test only adds one more webhook.test event.`
  }),
  retry: {
    notChanged:
      "The database does not answer, so the delivery was not made due again. Retry it again once the service answers.",
    unknown:
      "The database did not answer in time, so it is not known whether the delivery was made due again. Once the service answers, retry it again: that is safe, as every attempt of a delivery carries the same webhook-id."
  }
}

/** A delivery queued a moment ago whose state could not be read back: it stands and will be attempted. */
export const queuedUnread = (webhookId: string, deliveryId: string) =>
  `Delivery ${deliveryId} is queued and will be attempted, but the database did not answer when its state was read. See GET /api/public/webhooks/${webhookId}/deliveries once the service answers; do not queue it again.`

export const webhooksUnread = `The database does not answer, so your webhooks could not be read; nothing was changed. ${tryAgain}`

export const deliveriesUnread = `The database does not answer, so the deliveries could not be read; nothing was changed. ${tryAgain}`
