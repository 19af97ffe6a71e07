import { isApiError } from '@wpk/client/browser';

/**
 * The form field a server refusal is about, or null when it names no field of the form. The
 * refusal's `field` decides (`{"error": "...", "field": "items[0].amount"}`): the form field it
 * names, or the one it lies under (`items` for `items[0].amount`, `address` for `address.city`).
 * A refusal without `field` (a plain message, or an app service that words the field only in its
 * message) falls back to the message's first word (`title length must be at most 200 characters`,
 * `"due_date" must be a valid date`).
 */
export function fieldOfError(error: unknown, fields: readonly string[]): string | null {
  const named = isApiError(error) ? error.field : null;
  if (named !== null) return formFieldOf(named, fields);
  const message = isApiError(error) ? error.error : error instanceof Error ? error.message : String(error);
  const first = /^"?([A-Za-z0-9_]+)/.exec(message.trim());
  if (!first) return null;
  return fields.includes(first[1]) ? first[1] : null;
}

/** The form field a refusal's path names or lies under (`items` for `items[0].amount`), else null. */
export function formFieldOf(path: string, fields: readonly string[]): string | null {
  const owner = [...fields].sort((a, b) => b.length - a.length).find((name) => path === name || path.startsWith(`${name}.`) || path.startsWith(`${name}[`));
  return owner ?? null;
}
