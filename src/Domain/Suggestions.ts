/**
 * The closest supported vertical or job type to one a caller named that we do not have, so the
 * answer names the fix ("plumbing is vvs") before any fallback. Pure: the catalog gives the words.
 */

export interface VocabularyJobType {
  readonly jobTypeId: string
  /** Its id, labels and synonyms, in Swedish and English. */
  readonly words: ReadonlyArray<string>
}

export interface VocabularyVertical {
  readonly verticalId: string
  /** False for the verticals listed as not bookable yet (painting …): named, never suggested as bookable. */
  readonly bookable: boolean
  readonly words: ReadonlyArray<string>
  readonly jobTypes: ReadonlyArray<VocabularyJobType>
}

export interface Suggestion {
  readonly verticalId: string
  readonly bookable: boolean
  readonly jobTypeId?: string
}

/** Lower case, without diacritics (städning → stadning) and with any run of other characters one space. */
export const normalWords = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()

const bigrams = (text: string) => {
  const padded = ` ${text} `
  const grams = new Map<string, number>()
  for (let i = 0; i < padded.length - 1; i++) {
    const gram = padded.slice(i, i + 2)
    grams.set(gram, (grams.get(gram) ?? 0) + 1)
  }
  return grams
}

/** Sørensen–Dice over character bigrams, word order ignored: "faucet install" is "install faucet". */
export const similarity = (a: string, b: string) => {
  const left = bigrams(normalWords(a).split(" ").sort().join(" "))
  const right = bigrams(normalWords(b).split(" ").sort().join(" "))
  let shared = 0
  let total = 0
  for (const [gram, count] of left) {
    shared += Math.min(count, right.get(gram) ?? 0)
    total += count
  }
  for (const count of right.values()) total += count
  return total === 0 ? 0 : (2 * shared) / total
}

/**
 * A word the caller used stands for one of ours: the same, or the same stem (elektrisk ~
 * elektriker), the shared start being most of the longer word, so a compound is not its first part
 * (flyttstädning is not flytt).
 */
const sameWord = (said: string, ours: string) => {
  if (said === ours) return true
  const shorter = Math.min(said.length, ours.length)
  let common = 0
  while (common < shorter && said[common] === ours[common]) common++
  return common >= 5 && common >= 0.7 * Math.max(said.length, ours.length)
}

const isWordOf = (said: string, words: ReadonlyArray<string>) => words.some((word) => sameWord(said, normalWords(word)))

/** Suggest only a clear winner: above the floor, and ahead of the next best. */
const clearBest = <A>(scored: ReadonlyArray<readonly [A, number]>, floor: number): A | undefined => {
  const sorted = [...scored].sort((a, b) => b[1] - a[1])
  const [best, next] = sorted
  if (best === undefined || best[1] < floor) return undefined
  return next !== undefined && best[1] - next[1] < 0.08 ? undefined : best[0]
}

const jobTypeScore = (said: string, jobType: VocabularyJobType) =>
  Math.max(...jobType.words.map((word) => similarity(said, word)))

/** A job type named under the wrong vertical, by its exact id: where it is. */
const exactJobType = (vocabulary: ReadonlyArray<VocabularyVertical>, jobTypeId: string) =>
  vocabulary.find((vertical) => vertical.bookable && vertical.jobTypes.some((jt) => jt.jobTypeId === jobTypeId))

/**
 * The vertical meant by an id we do not have: one of ours by a label or synonym (plumbing, el,
 * städning, flytt), or the vertical of a job type it names (flyttstädning is cleaning's move-out).
 */
export const suggestVertical = (
  vocabulary: ReadonlyArray<VocabularyVertical>,
  verticalText: string,
  jobTypeText: string
): Suggestion | undefined => {
  const said = normalWords(verticalText)
  if (said.length === 0) return undefined
  const byWord = vocabulary.filter((vertical) => isWordOf(said, [vertical.verticalId, ...vertical.words]))
  if (byWord.length === 1) {
    const [vertical] = byWord as [VocabularyVertical]
    const jobType = vertical.jobTypes.find((jt) => jt.jobTypeId === jobTypeText)
    return {
      verticalId: vertical.verticalId,
      bookable: vertical.bookable,
      ...(jobType ? { jobTypeId: jobType.jobTypeId } : {})
    }
  }
  const owner = exactJobType(vocabulary, jobTypeText)
  if (byWord.length === 0 && owner !== undefined) {
    return { verticalId: owner.verticalId, bookable: true, jobTypeId: jobTypeText }
  }
  const byJobWord = vocabulary.flatMap((vertical) =>
    vertical.jobTypes
      .filter((jobType) =>
        isWordOf(
          said,
          jobType.words.filter((word) => !word.includes(" ") && !word.includes("_"))
        )
      )
      .map((jobType) => ({ vertical, jobType }))
  )
  const [only] = byJobWord
  return byJobWord.length === 1 && only !== undefined
    ? { verticalId: only.vertical.verticalId, bookable: only.vertical.bookable, jobTypeId: only.jobType.jobTypeId }
    : undefined
}

/**
 * The job type meant by an id the vertical does not have: the same id in another vertical, else
 * the vertical's clearly closest by id, label or synonym, else another vertical's, more strictly.
 */
export const suggestJobType = (
  vocabulary: ReadonlyArray<VocabularyVertical>,
  verticalId: string,
  jobTypeText: string
): Suggestion | undefined => {
  const owner = exactJobType(vocabulary, jobTypeText)
  if (owner !== undefined) return { verticalId: owner.verticalId, bookable: true, jobTypeId: jobTypeText }
  if (normalWords(jobTypeText).length === 0) return undefined
  const scoredIn = (vertical: VocabularyVertical) =>
    vertical.jobTypes.map((jobType) => [{ vertical, jobType }, jobTypeScore(jobTypeText, jobType)] as const)
  const own = vocabulary.find((vertical) => vertical.verticalId === verticalId)
  const inOwn = own === undefined ? undefined : clearBest(scoredIn(own), 0.6)
  const found = inOwn ?? clearBest(vocabulary.filter((vertical) => vertical.bookable).flatMap(scoredIn), 0.75)
  return found === undefined
    ? undefined
    : { verticalId: found.vertical.verticalId, bookable: found.vertical.bookable, jobTypeId: found.jobType.jobTypeId }
}
