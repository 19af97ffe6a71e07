import type { Logger } from 'pino';
import type { SearchIndex } from './search-index.js';

/** Default pause between two dictionary prunes. */
export const DEFAULT_PRUNE_INTERVAL_MS = 6 * 60 * 60 * 1000;

/**
 * Prunes every workspace's search dictionary every `intervalMs` (never two runs at once; the
 * timer does not keep the process alive). Returns the function that stops it.
 */
export function scheduleDictionaryPruning(index: SearchIndex, options: { intervalMs?: number; logger?: Logger } = {}): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    index
      .pruneDictionary()
      .then((pruned) => options.logger?.info({ pruned }, 'search dictionary pruned'))
      .catch((error) => options.logger?.error({ err: error }, 'search dictionary prune failed'))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs ?? DEFAULT_PRUNE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
