/**
 * Search is data-minimised (spec section 1): an e-mail address or a phone number in a search
 * field is refused, since personal data belongs to confirmation, after consent.
 */
const emailPattern = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[A-Za-z]{2,}/

/** A run of digits with phone punctuation that starts like a phone number (+46, 0046 or 0). */
const phoneCandidates = /(?<![\w+])(?:\+|00)?\d[\d \-–()/]{6,}\d(?!\w)/g

const looksLikePhone = (text: string) => {
  for (const match of text.matchAll(phoneCandidates)) {
    const candidate = match[0]
    const digits = candidate.replace(/\D/g, "")
    if (digits.length >= 8 && digits.length <= 15 && /^(\+|0)/.test(candidate)) return true
  }
  return false
}

export type PersonalDataKind = "e-mail address" | "phone number"

export const personalDataIn = (text: string): PersonalDataKind | undefined =>
  emailPattern.test(text) ? "e-mail address" : looksLikePhone(text) ? "phone number" : undefined

/** Every string inside a JSON value, with its path below `root`. */
export const stringsIn = (value: unknown, root: string): Array<readonly [string, string]> => {
  const found: Array<readonly [string, string]> = []
  const walk = (node: unknown, path: string) => {
    if (typeof node === "string") found.push([path, node])
    else if (node !== null && typeof node === "object")
      for (const [key, item] of Object.entries(node)) walk(item, `${path}.${key}`)
  }
  walk(value, root)
  return found
}

export const personalDataIssue = (path: string, kind: PersonalDataKind, confirm = "POST /api/public/bookings") =>
  `${path}: looks like it contains a ${kind}; search takes no personal data, which belongs to the confirmation (${confirm}) after the user's consent`
