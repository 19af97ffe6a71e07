import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';

/** What one load run measured. */
export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** A request to drive: GET by default; a body is sent as JSON. */
export interface LoadTarget {
  url: string;
  headers: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: object;
}

/** Drives `target` with autocannon on loopback for `seconds` and returns its figures. */
export async function load(target: LoadTarget, seconds: number, connections: number): Promise<LoadFigures> {
  const body = target.body === undefined ? undefined : JSON.stringify(target.body);
  const headers = body === undefined ? target.headers : { ...target.headers, 'content-type': 'application/json' };
  const result = await autocannon({ url: target.url, method: target.method ?? 'GET', headers, body, duration: seconds, connections, pipelining: 1 });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** The machine's load averages (1, 5, 15 minutes), as `uptime` prints them. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Prints a small aligned table. */
export function printTable(rows: Array<Record<string, string | number>>): void {
  const columns = Object.keys(rows[0]);
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => String(row[column]).length)));
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index])).join('  ');
  console.log(line(columns));
  for (const row of rows) console.log(line(columns.map((column) => String(row[column]))));
}

/**
 * CPU time (ms, user + system) spent so far by the local PostgreSQL server's processes, read from
 * /proc (Linux, server on this machine); null where that cannot be read. The clock-tick resolution
 * is 10 ms: measure over enough requests.
 */
export function databaseServerCpuMs(): number | null {
  let total = 0;
  let found = false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' ');
    // fields[11] utime, fields[12] stime (the 14th and 15th of stat, counted after the command).
    total += Number(fields[11]) + Number(fields[12]);
    found = true;
  }
  return found ? (total * 1000) / 100 : null;
}

/**
 * CPU time (ms) the whole machine has spent busy so far (every process: /proc/stat's first line,
 * all but idle and iowait); null where that cannot be read. Unlike databaseServerCpuMs it keeps
 * the time of processes that ended meanwhile (a pool's connections closing and reopening).
 */
export function machineBusyCpuMs(): number | null {
  let line: string;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  } catch {
    return null;
  }
  const [, ...ticks] = line.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal ...: busy is all but idle (3) and iowait (4).
  const busy = ticks.slice(0, 8).reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  return (busy * 1000) / 100;
}
