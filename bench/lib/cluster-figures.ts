import { readdirSync, readFileSync } from 'node:fs';

/** One request of the cluster bench's load: its kind, its status (0: no answer), start and end (ms on the bench's clock). */
export interface Sample {
  kind: 'read' | 'write' | 'chat' | 'search' | 'storm';
  status: number;
  start: number;
  end: number;
}

/** The p-th percentile (nearest rank) of some numbers; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** One row of the fault table. */
export interface PhaseFigures {
  [column: string]: string | number;
  phase: string;
  requests: number;
  'not 200': string;
  p99_ms: string;
  recover_ms: string;
}

/**
 * The figures of the requests that started in [from, to): how many, the statuses other than 200
 * (`status:count`, 0 = no answer), the p99 latency, and — for a fault that began at `faultAt` —
 * the time to recover: from the fault to the end of the last request in the window not answered
 * 200 (0 when every request was).
 */
export function phaseFigures(phase: string, samples: Sample[], from: number, to: number, faultAt: number | null): PhaseFigures {
  const inside = samples.filter((sample) => sample.start >= from && sample.start < to);
  const failed = inside.filter((sample) => sample.status !== 200);
  const counts = new Map<number, number>();
  for (const sample of failed) counts.set(sample.status, (counts.get(sample.status) ?? 0) + 1);
  const p99 = percentile(inside.map((sample) => sample.end - sample.start), 99);
  return {
    phase,
    requests: inside.length,
    'not 200': [...counts].sort((a, b) => a[0] - b[0]).map(([status, count]) => `${status}:${count}`).join(' ') || 'none',
    p99_ms: Number.isNaN(p99) ? '-' : p99.toFixed(0),
    recover_ms: faultAt === null ? '-' : String(failed.length ? Math.max(...failed.map((sample) => sample.end)) - faultAt : 0),
  };
}

/** CPU time (ms, user + system) of each process in `pids` that is running, by pid (Linux /proc; 10 ms ticks). */
export function cpuMsOf(pids: number[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      // ended meanwhile
    }
  }
  return times;
}

/** The local PostgreSQL server's processes' CPU time, by pid. */
export function postgresCpu(): Map<number, number> {
  const pids = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
  return cpuMsOf(pids);
}

/**
 * CPU spent between two readings: each process's growth, for processes running at both (a
 * backend that ended in between takes its time with it, so this undercounts rather than going
 * negative), plus the whole time of processes that started in between.
 */
export function cpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
