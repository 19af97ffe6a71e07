import { resource } from '../kit.js';

/**
 * The hosting records as SDK resources: get-or-404 in the workspace (another workspace's id, or an
 * id of any other shape, answers the same 404 naming it) and the mailbox list with `q`.
 */
export const domainResource = resource({ model: 'domains', label: 'Domain', order: [['name', 'ASC'], ['id', 'ASC']] });
export const mailboxResource = resource({ model: 'mailboxes', label: 'Mailbox', order: [['address', 'ASC'], ['id', 'ASC']], searchColumns: ['address'] });
export const groupResource = resource({ model: 'groups', label: 'Group', order: [['address', 'ASC'], ['id', 'ASC']] });
