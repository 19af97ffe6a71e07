import { resource } from '../kit.js';

/**
 * Files and folders as an SDK resource, for the keyset walk of a re-index. Who may see or change
 * an item is the app's own rule (services/access.ts: owner, shares, folders above), so its
 * get-or-404 stays there.
 */
export const itemResource = resource({ model: 'items', label: 'File', order: [['created_at', 'ASC'], ['id', 'ASC']] });
