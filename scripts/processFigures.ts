import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100

/** User + system CPU seconds a process has used so far (fields 14 and 15 of /proc/<pid>/stat). */
export const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
  return (Number(fields[11]) + Number(fields[12])) / clockTicks
}

/** A process's resident memory now, in MB (VmRSS of /proc/<pid>/status). */
export const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

const statFields = (pid: number | string) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
  } catch {
    return [] // the process ended between listing and reading
  }
}

/**
 * The CPU seconds a PostgreSQL cluster has used so far: its postmaster's own, its ended backends'
 * (which the postmaster reaps, so they are in its children's fields 16 and 17) and its live
 * processes' (the pool's backends, the checkpointer, the WAL writer). Read from `/proc`, so only
 * for a cluster on this machine, such as the bench's embedded one.
 */
export const clusterCpuSeconds = (postmasterPid: number) => {
  const own = statFields(postmasterPid)
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const fields = statFields(entry)
    if (Number(fields[1]) === postmasterPid) ticks += Number(fields[11]) + Number(fields[12])
  }
  return ticks / clockTicks
}

/** The postmaster of the cluster in `clusterDir`: the first line of its postmaster.pid. */
export const postmasterPid = (clusterDir: string) =>
  Number(readFileSync(join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0])
