import { formatMrn, type SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { memberRemoved, subscription } from '../kit.js';
import type { Models, SourceKind } from '../models/index.js';
import { keepSource, memberGone } from '../services/sources.js';

/** Another app's payload (validated by the platform against its app.json schema), as this app reads it. */
type Payload = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** A copy kept from an event: the record's MRN, name, revision and whether the event deletes it. */
function keeper(kind: SourceKind, read: (payload: Payload) => { mrn: string; name?: string; revision?: number }, deleted = false) {
  return async (event: { payload: object }, ctx: Parameters<typeof keepSource>[0]) => {
    const { mrn, name, revision } = read(event.payload as Payload);
    await keepSource(ctx, { kind, mrn, ...(name !== undefined ? { name } : {}), ...(revision !== undefined ? { revision } : {}), deleted });
  };
}

const worker = (payload: Payload) => ({ mrn: text(payload.mrn) ?? formatMrn('workers', 'worker', String(payload.worker_id)), name: text(payload.name), revision: number(payload.revision) });
const company = (payload: Payload) => ({ mrn: text(payload.company_mrn) ?? formatMrn('companies', 'company', String(payload.company_id)), name: text(payload.name), revision: number(payload.revision) });
const contact = (payload: Payload) => ({ mrn: text(payload.contact_mrn) ?? formatMrn('contacts', 'contact', String(payload.contact_id)), name: text(payload.display_name) });
const task = (payload: Payload) => ({ mrn: formatMrn('tasks', 'task', String(payload.task_id)), name: text(payload.title) });

/**
 * The copies MRN fields show, fed by their apps' events. Tasks: `task.updated` carries no title,
 * so a task keeps the title it was created with.
 */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'core.workers.worker.hired': subscription('core.workers.worker.hired', keeper('worker', worker)),
  'core.workers.worker.updated': subscription('core.workers.worker.updated', keeper('worker', worker)),
  'core.workers.worker.rehired': subscription('core.workers.worker.rehired', keeper('worker', worker)),
  'core.workers.worker.terminated': subscription('core.workers.worker.terminated', keeper('worker', worker)),
  'core.workers.worker.deleted': subscription('core.workers.worker.deleted', keeper('worker', worker, true)),
  'core.companies.company.created': subscription('core.companies.company.created', keeper('company', company)),
  'core.companies.company.updated': subscription('core.companies.company.updated', keeper('company', company)),
  'core.companies.company.deleted': subscription('core.companies.company.deleted', keeper('company', company, true)),
  'core.contacts.contact.created': subscription('core.contacts.contact.created', keeper('contact', contact)),
  'core.contacts.contact.updated': subscription('core.contacts.contact.updated', keeper('contact', contact)),
  'core.contacts.contact.deleted': subscription('core.contacts.contact.deleted', keeper('contact', contact, true)),
  'core.tasks.task.created': subscription('core.tasks.task.created', keeper('task', task)),
  'core.tasks.task.deleted': subscription('core.tasks.task.deleted', keeper('task', task, true)),
  'core.tasks.task.bulk_deleted': subscription('core.tasks.task.bulk_deleted', async (event, ctx) => {
    for (const id of (event.payload as { task_ids: string[] }).task_ids) await keepSource(ctx, { kind: 'task', mrn: formatMrn('tasks', 'task', id), deleted: true });
  }),
  'core.account.member.removed': memberRemoved((ctx, { memberId }) => memberGone(ctx, memberId)),
};
