/** `YYYY-MM-DD`, the form of task and schedule dates. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Parses a `YYYY-MM-DD` string as an ISO calendar date (UTC midnight); null when the form is
 * wrong or the day does not exist (2026-02-30).
 */
export function parseIsoDate(value: string): Date | null {
  if (!DATE_PATTERN.test(value)) return null;
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().slice(0, 10) === value ? date : null;
}

/** True when `later` is not before `earlier` (both `YYYY-MM-DD`; a missing side always passes). */
export function notBefore(later: string | null | undefined, earlier: string | null | undefined): boolean {
  if (!later || !earlier) return true;
  return later >= earlier;
}
