/** Normalization keeps where each character came from, so the label can quote the person's own words. */

interface Normalized {
  readonly text: string
  /** origin[i] is the index in the original text of normalized character i; one extra entry for the end. */
  readonly origin: ReadonlyArray<number>
}

export const normalize = (text: string): Normalized => {
  let out = ""
  const origin: Array<number> = []
  let index = 0
  for (const char of text) {
    const folded = char
      .normalize("NFKD")
      .toLowerCase()
      .replace(/\p{M}/gu, "")
      .replace(/[’‘`´]/gu, "'")
      .replace(/[‐‑‒–—−]/gu, "-")
    for (let i = 0; i < folded.length; i++) origin.push(index)
    out += folded
    index += char.length
  }
  origin.push(index)
  return { text: out, origin }
}

/** Whole words only: letters or digits on either side mean the phrase is part of something else. */
export const phrase = (source: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, "gu")
