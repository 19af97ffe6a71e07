/**
 * API versions. A client sends `X-Api-Version: YYYY-MM-DD`; it gets the newest version released
 * on or before that date. Each version after the first may carry `downgrade`, which turns a
 * response of that version into the shape of the version before it, so older clients keep the
 * shape they were written against: answers are built in the newest shape, then downgraded step
 * by step to the version in use.
 */
export interface ApiVersion {
  /** Release date, `YYYY-MM-DD`. */
  date: string;
  /** What changed, for the docs and the 400 message. */
  summary: string;
  /** Turns a response body of this version into the previous version's shape. */
  downgrade?(body: unknown, context: { path: string; method: string }): unknown;
}

/** Every released version, oldest first. Add a new one at the end. */
export const API_VERSIONS: readonly ApiVersion[] = [{ date: '2026-11-01', summary: 'First public version.' }];

export type VersionResolution = { ok: true; version: ApiVersion } | { ok: false; error: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Header values already found to be real dates (clients send a handful: the versions they were written against). */
const knownDates = new Set<string>();

function isRealDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** A refusal naming the supported versions. */
function refuse(reason: string, versions: readonly ApiVersion[]): VersionResolution {
  return { ok: false, error: `${reason}; supported versions: ${versions.map((version) => version.date).join(', ')}` };
}

/** Picks the version for a header value; `today` is the server's UTC date. */
export function resolveApiVersion(header: string | undefined, today: string, versions: readonly ApiVersion[] = API_VERSIONS): VersionResolution {
  if (header === undefined || header.trim() === '') return refuse('X-Api-Version header is required (a date, YYYY-MM-DD)', versions);
  const value = header.trim();
  if (!knownDates.has(value)) {
    if (!isRealDate(value)) return refuse(`X-Api-Version "${value}" is not a valid date (YYYY-MM-DD)`, versions);
    if (knownDates.size < 1000) knownDates.add(value);
  }
  if (value < versions[0].date) return refuse(`X-Api-Version ${value} is earlier than the first version`, versions);
  if (value > today) return refuse(`X-Api-Version ${value} is in the future`, versions);
  let chosen = versions[0];
  for (const version of versions) if (version.date <= value) chosen = version;
  return { ok: true, version: chosen };
}

/** Applies the downgrades of every version newer than `target`, newest first. */
export function downgradeResponse(body: unknown, target: ApiVersion, context: { path: string; method: string }, versions: readonly ApiVersion[] = API_VERSIONS): unknown {
  let result = body;
  for (let index = versions.length - 1; index >= 0 && versions[index].date > target.date; index--) {
    const downgrade = versions[index].downgrade;
    if (downgrade) result = downgrade(result, context);
  }
  return result;
}

const DAY_MS = 86_400_000;
/** The UTC day `utcToday` last formatted (days since the epoch) and its text. */
let today = { day: Number.NaN, text: '' };

/** Today's date in UTC, `YYYY-MM-DD`. */
export function utcToday(now = new Date()): string {
  // Every request asks: the day's text is kept until the day changes (toISOString formats
  // through a printf in V8, a few microseconds each time).
  const day = Math.floor(now.getTime() / DAY_MS);
  if (day !== today.day) today = { day, text: now.toISOString().slice(0, 10) };
  return today.text;
}
