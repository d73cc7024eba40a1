/**
 * CPU use during a measurement, in cores, from /proc (Linux; null elsewhere): the server process,
 * the load generator (this process) and the rest of the machine. During an app run the rest
 * includes PostgreSQL; during a bare run it is other work on the machine, i.e. noise.
 */
import { readFileSync } from 'node:fs';

export interface CpuSnapshot {
  /** All CPUs' ticks, busy and idle. */
  total: number;
  /** All CPUs' busy ticks. */
  busy: number;
  server: number;
  self: number;
}

export interface CpuUse {
  server: number;
  loadGenerator: number;
  rest: number;
}

function processTicks(pid: number | 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

export function cpuSnapshot(serverPid: number): CpuSnapshot | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const t = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user)
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = t;
    const busy = user + nice + system + irq + softirq + steal;
    return { total: busy + idle + iowait, busy, server: processTicks(serverPid), self: processTicks('self') };
  } catch {
    return null;
  }
}

export function cpuUse(before: CpuSnapshot | null, after: CpuSnapshot | null, cpus: number): CpuUse | null {
  if (!before || !after) return null;
  const total = after.total - before.total;
  if (total <= 0) return null;
  const cores = (ticks: number) => Math.max(0, (ticks / total) * cpus);
  const server = after.server - before.server;
  const self = after.self - before.self;
  return {
    server: cores(server),
    loadGenerator: cores(self),
    rest: cores(after.busy - before.busy - server - self),
  };
}
