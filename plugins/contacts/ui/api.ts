import { type components } from '@wpk/ui';

/** A contact as the API answers it. */
export type Contact = components['schemas']['ContactsContact'];
/** One of the member's suggestions. */
export type Suggestion = components['schemas']['ContactsSuggestion'];

/** A comma-separated list as typed in a field: trimmed, empty parts dropped. */
export function splitList(text: unknown): string[] {
  return String(text ?? '')
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);
}
