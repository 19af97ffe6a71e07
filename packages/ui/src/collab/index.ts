/**
 * `@wpk/ui/collab`: a Yjs document kept in step with the app's server and who is here
 * (`CollabSession`), the browser half of the SDK's `defineCollabDocuments`; `<wpk-collab-editor>`
 * is built on it. Kept out of the kit's main entry (Yjs is ~30 kB gzipped), so only the apps that
 * edit together carry it. `Y` is the kit's Yjs, the one the session's document is made with.
 */
export { CollabSession, fromBase64, REMOTE, statusText, toBase64, type CollabSessionOptions, type CollabStatus, type CollabTransport, type CollabUser } from './session.js';
export * as Y from 'yjs';
