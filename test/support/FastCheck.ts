// The fast-check that effect bundles, the one `it.effect.prop` and `Arbitrary.make` are built on:
// one version, configured here once for every property of the suite.
import { FastCheck as fc } from "effect"

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
