// The values of a record's form (`RecordEdit.formValue`) and the request body made of them
// (`RecordEdit.requestBody`): kept free of the DOM, so they are unit-tested in Node.

/**
 * What a record form shows of some text fields of `source` (the record, or a part of it such as
 * its address): each field's value, '' where it is null or missing.
 */
export function textValues(source: object, fields: readonly string[]): Record<string, unknown> {
  const record = source as Record<string, unknown>;
  return Object.fromEntries(fields.map((field) => [field, record[field] ?? '']));
}

/**
 * The text fields of a record form's request body (`RecordEdit.requestBody`), each value trimmed:
 * for a new record (`shown` null) the fields filled in; for an edit only the fields that changed
 * from what the form showed (`formValue`), an emptied one as null (cleared), or as '' for the
 * fields in `blankable` (long text that the API keeps as an empty string). A value the app derives
 * when it is left out (a contact's display name) so stays derived until someone types one.
 */
export function textChanges(values: Record<string, unknown>, fields: readonly string[], shown: Record<string, unknown> | null, blankable: readonly string[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const now = String(values[field] ?? '').trim();
    if (!shown) {
      if (now) body[field] = now;
    } else if (now !== String(shown[field] ?? '').trim()) body[field] = now === '' && !blankable.includes(field) ? null : now;
  }
  return body;
}

/** The values that are filled in: those that are '', null or missing left out (a request body of what a form sent). */
export function filledValues(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '' && value !== null && value !== undefined));
}
