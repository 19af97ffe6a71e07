import autocannon from 'autocannon';

/** What one load run measured. */
export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Drives `url` with autocannon on loopback for `seconds` and returns its figures. */
export async function load(url: string, headers: Record<string, string>, seconds: number, connections: number): Promise<LoadFigures> {
  const result = await autocannon({ url, headers, duration: seconds, connections, pipelining: 1 });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Prints a small aligned table. */
export function printTable(rows: Array<Record<string, string | number>>): void {
  const columns = Object.keys(rows[0]);
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => String(row[column]).length)));
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index])).join('  ');
  console.log(line(columns));
  for (const row of rows) console.log(line(columns.map((column) => String(row[column]))));
}
