import { likePattern } from '@wpk/sdk';

/**
 * An ILIKE pattern matching `text` whole, ignoring case (a name or an email compared as the app's
 * uniqueness rules compare them): the SDK's prefix pattern without its trailing `%`, so `%`, `_`
 * and `\` in the text stay literal.
 */
export function exactly(text: string): string {
  return likePattern(text, 'prefix').slice(0, -1);
}
