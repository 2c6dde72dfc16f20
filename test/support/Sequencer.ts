import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The files that take longest, longest first, as one full run on two cores measured them. A file
 * is given to whichever fork is free, so a long file started last keeps one core busy after the
 * other has run out of files; vitest avoids that by starting the files that took longest last
 * time, but a fresh clone has no such record and starts the largest files first, which these are not.
 */
const slowest = [
  "test/Webhooks/Webhooks.test.ts",
  "test/Main/Stop.test.ts",
  "test/Main/Main.test.ts",
  "test/Database/DatabaseFreeze.test.ts",
  "test/Webhooks/KillNine.test.ts",
  "test/Notifications/Notifier.test.ts",
  "test/Partners/Authentication.test.ts",
  "test/Bookings/Concurrency.prop.test.ts",
  "test/e2e/MultiInstance.test.ts",
  "test/Http/GeneratedClient.test.ts",
  "test/Mcp/Inspector.test.ts",
  "test/Database/Database.test.ts"
]

/** Vitest's order (by last run's durations) where it has them for every file, else `slowest` first. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const root = this.ctx.config.root
    const path = (file: TestSpecification) => relative(root, file.moduleId)
    const measured = files.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`))
    if (measured) return sorted
    const rank = (file: TestSpecification) => {
      const index = slowest.indexOf(path(file))
      return index === -1 ? slowest.length : index
    }
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}
