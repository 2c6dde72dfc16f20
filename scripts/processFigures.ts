import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"

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
