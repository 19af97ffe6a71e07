/**
 * The field a server refusal names, by the platform's rule: validation messages start with the
 * field (`title length must be at most 200 characters`, `"due_date" must be a valid date`,
 * `items[0].amount must be a number`). Answers null when no field of the form is named.
 */
export function fieldOfError(message: string, fields: readonly string[]): string | null {
  const first = /^"?([A-Za-z0-9_]+)/.exec(message.trim());
  if (!first) return null;
  return fields.includes(first[1]) ? first[1] : null;
}
