/** A PostgreSQL bigint as a number (sizes stay far below 2^53). */
export function bytes(value: number | string | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}
