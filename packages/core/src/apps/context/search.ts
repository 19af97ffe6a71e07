import type { SearchDocument } from '@wpk/sdk';
import { factsOf } from './facts.js';
import type { ContextInputs } from './inputs.js';

/** `ctx.search`: index changes of the app's declared types, applied in the work after the handler. */
export function searchOf({ runtime, outbox }: ContextInputs) {
  const { app } = runtime;
  const { searchTypes } = factsOf(app);
  const operations = outbox.search;
  return Object.freeze({
    upsert(document: SearchDocument) {
      if (!searchTypes.has(document.type)) throw new Error(`${app.namespace} may not index type ${document.type}: its manifest does not declare it`);
      if (!document.id || !document.title || !document.url || !Array.isArray(document.names)) throw new TypeError(`search upsert of ${document.type}: id, title, url and names are required`);
      operations.push({ op: 'upsert', document: structuredClone(document) });
    },
    remove(type: string, id: string) {
      if (!searchTypes.has(type)) throw new Error(`${app.namespace} may not index type ${type}: its manifest does not declare it`);
      operations.push({ op: 'remove', type, id: String(id) });
    },
  });
}
