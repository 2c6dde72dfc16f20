/**
 * Preloaded into a server by `MEMORY=1 npm run bench:soak` (`node --expose-gc --require`): every
 * 15 s, and on SIGUSR2 before and after a full collection, it appends one line to
 * MEMORY_PROBE_LOG with the process's memory split (RSS, V8's heap committed and used, external and
 * array buffers) and each heap space's used/committed MB. What RSS holds beyond the heap is the
 * difference: code and stacks of the node binary, malloc's pools, socket buffers.
 */
const { appendFileSync } = require("node:fs")
const v8 = require("node:v8")

const log = process.env.MEMORY_PROBE_LOG
const mb = (bytes) => (bytes / 1e6).toFixed(1)
const line = (tag) => {
  const m = process.memoryUsage()
  const spaces = v8
    .getHeapSpaceStatistics()
    .filter((space) => space.space_size > 0)
    .map((space) => `${space.space_name} ${mb(space.space_used_size)}/${mb(space.space_size)}`)
    .join(", ")
  appendFileSync(
    log,
    `${tag}: rss ${mb(m.rss)}, heap ${mb(m.heapUsed)} used of ${mb(m.heapTotal)}, external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)}) | ${spaces}\n`
  )
}

if (log) {
  setInterval(() => line("tick"), 15_000).unref()
  process.on("SIGUSR2", () => {
    line("before full gc")
    globalThis.gc?.()
    line("after full gc")
  })
}
