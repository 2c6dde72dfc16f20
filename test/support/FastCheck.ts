// fast-check, configured here once for every property of the suite. Effect 4 has its own
// Arbitrary module and no longer bundles fast-check; the suite's properties use fast-check itself.
import * as fc from "fast-check"

export { fc }

const requested = Number.parseInt(process.env.NUM_RUNS ?? "", 10)
const deep = process.env.PROPS === "deep"
const seed = process.env.SEED ? Number(process.env.SEED) : requested > 0 || deep ? Date.now() : undefined
const path = process.env.FC_PATH

if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed })

/**
 * Runs, seed and timeout of a property. `npm test` runs `quick`; `PROPS=deep` (what `npm run
 * test:props` sets) runs `deep`; `NUM_RUNS` sets every property's count and `SEED` (with
 * `FC_PATH` from a failure report) replays one; a deep or counted run prints the seed it uses.
 */
export const propSettings = (law: string, runs: { readonly quick: number; readonly deep: number }, msPerRun = 400) => {
  const numRuns = requested > 0 ? requested : deep ? runs.deep : runs.quick
  if (seed !== undefined) console.log(`[${law}] seed ${seed}, ${numRuns} runs${path ? `, path ${path}` : ""}`)
  const parameters: Pick<fc.Parameters, "numRuns" | "seed" | "path"> = {
    numRuns,
    ...(seed === undefined ? {} : { seed }),
    ...(path === undefined ? {} : { path })
  }
  return { numRuns, parameters, timeout: 60_000 + numRuns * msPerRun }
}

/** One code point of the whole of Unicode but the surrogates: what fast-check's `binary` unit draws. */
const binaryUnit = (() => {
  const drawn = fc.mapToConstant(
    { num: 0xd800, build: (index) => String.fromCodePoint(index) },
    { num: 0x10ffff - 0xe000 + 1, build: (index) => String.fromCodePoint(0xe000 + index) }
  )
  class CodePoint extends fc.Arbitrary<string> {
    generate(random: fc.Random, biasFactor: number | undefined) {
      return drawn.generate(random, biasFactor)
    }
    canShrinkWithoutContext(value: unknown): value is string {
      if (typeof value !== "string" || value.length === 0) return false
      const point = value.codePointAt(0)!
      return String.fromCodePoint(point) === value && (point < 0xd800 || point > 0xdfff)
    }
    shrink(value: string, context: unknown) {
      return drawn.shrink(value, context)
    }
  }
  return new CodePoint()
})()

/**
 * `fc.string({ unit: "binary", ...constraints })`: the same strings from the same seed, without
 * the second of CPU it costs to build. fast-check asks the unit, character by character, which
 * of its built-in dangerous strings ("__proto__", "constructor", ...) it can produce, and its
 * binary unit answers from a map of all 1,112,064 code points that it builds on the first
 * question; this one answers from the code point itself. Shrinking still uses fast-check's own.
 */
export const binaryString = (constraints: Omit<fc.StringConstraints, "unit"> = {}) =>
  fc.string({ ...constraints, unit: binaryUnit })
