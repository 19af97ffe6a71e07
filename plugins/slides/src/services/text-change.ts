/**
 * The one changed stretch between a text and its next value (the common start and end kept): how
 * a whole new value (a REST write, a text field's input) is written into a `Y.Text`, so edits
 * others make around it merge. Shared by the server and the front-end, so it imports nothing.
 * Null when nothing changed; never splits a surrogate pair.
 */
export function textChange(current: string, value: string): { at: number; remove: number; insert: string } | null {
  if (current === value) return null;
  let start = 0;
  while (start < current.length && start < value.length && current[start] === value[start]) start++;
  if (start > 0 && /[\uD800-\uDBFF]/.test(current[start - 1])) start--;
  let end = 0;
  while (end < current.length - start && end < value.length - start && current[current.length - 1 - end] === value[value.length - 1 - end]) end++;
  if (end > 0 && /[\uDC00-\uDFFF]/.test(current[current.length - end])) end--;
  return { at: start, remove: current.length - start - end, insert: value.slice(start, value.length - end) };
}
