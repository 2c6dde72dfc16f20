import { readFile } from "node:fs/promises"
import { Console, Effect } from "effect"
import { runTool } from "../Main/Process.js"
import { Supply } from "../Supply/Supply.js"

const overwriteFlag = "--overwrite-provider-edits"
const usage = `usage: npm run supply:import -- FILE.json [${overwriteFlag}]`

const program = Effect.gen(function* () {
  const args = process.argv.slice(2)
  const overwriteProviderEdits = args.includes(overwriteFlag)
  const [file, ...rest] = args.filter((arg) => arg !== overwriteFlag)
  if (!file || rest.length > 0 || file.startsWith("--")) return yield* Effect.fail(new Error(usage))
  const json = yield* Effect.tryPromise({
    try: () => readFile(file, "utf8").then((text) => JSON.parse(text) as unknown),
    catch: (error) => new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`)
  })
  const supply = yield* Supply
  const imported = yield* supply.importFile(json, { overwriteProviderEdits })
  yield* Console.log(`imported ${imported.providers} providers and ${imported.services} services from ${file}`)
  if (imported.keptProviderEdits.length > 0)
    yield* Console.log(
      `kept as the providers set them (not overwritten): ${imported.keptProviderEdits.join(", ")}; run again with ${overwriteFlag} to overwrite them with the file`
    )
})

runTool(program, Supply.WithoutDemo)
