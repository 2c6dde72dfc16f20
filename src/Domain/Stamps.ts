/** How far a client's clock may run ahead of ours when it stamps consent or acceptance. */
export const clockSkewMs = 5 * 60_000

/**
 * Consent and acceptance times are stamped by the client; one from the future is not a time
 * the user acted, so it is refused (400) naming the field.
 */
export const futureStampIssues = (
  stamps: ReadonlyArray<readonly [field: string, value: string | undefined]>,
  now: Date
): Array<string> =>
  stamps.flatMap(([field, value]) =>
    value !== undefined && Date.parse(value) > now.getTime() + clockSkewMs
      ? [
          `${field}: lies in the future; send the time the user actually ${field.startsWith("consent") ? "consented" : "accepted"}`
        ]
      : []
  )
