import { readFile } from "node:fs/promises"
import { Console, Effect } from "effect"
import { runTool } from "../Main/Process.js"
import { Supply } from "../Supply/Supply.js"

const usage = "usage: npm run supply:import -- FILE.json"

const program = Effect.gen(function* () {
  const file = process.argv[2]
  if (!file) return yield* Effect.fail(new Error(usage))
  const json = yield* Effect.tryPromise({
    try: () => readFile(file, "utf8").then((text) => JSON.parse(text) as unknown),
    catch: (error) => new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`)
  })
  const supply = yield* Supply
  const imported = yield* supply.importFile(json)
  yield* Console.log(`imported ${imported.providers} providers and ${imported.services} services from ${file}`)
})

runTool(program, Supply.WithoutDemo)
