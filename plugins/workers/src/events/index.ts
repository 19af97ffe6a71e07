import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { memberRemoved, subscription } from '../kit.js';
import type { Models } from '../models/index.js';
import { announceRecords } from '../services/announce.js';
import { keepLocation, type LocationPayload } from '../services/locations.js';
import { applyDueChange, asHire, draftFromHire, filesTransferred, linkMember, tasksReleased, timeOffCleared, unlinkMember } from '../services/links.js';

/** `system.workspace.member.added` {member_id}: a worker with the member's e-mail as work e-mail is linked to them. */
const onMemberAdded = subscription('system.workspace.member.added', (event, ctx) => linkMember(ctx, event.payload.member_id.toLowerCase()));

/** `core.account.member.removed` {member_id}: workers linked to the member are unlinked. */
const onMemberRemoved = memberRemoved((ctx, { memberId }) => unlinkMember(ctx, memberId));

/** `core.ats.application.hired`: a draft worker in onboarding, once per application. */
const onHired = subscription('core.ats.application.hired', async (event, ctx) => {
  const hire = asHire(event.payload);
  if (hire) await draftFromHire(ctx, hire);
  else ctx.log.warn({ action: event.action, delivery: event.deliveryId }, 'application.hired without application_id, candidate_name, candidate_email or job_title: ignored');
});

/** `core.workers.change.scheduled` (the app's own delayed event): a future-dated change takes effect. */
const onChangeDue = subscription('core.workers.change.scheduled', (event, ctx) => applyDueChange(ctx, event.payload.worker_id));

/** `core.files.transfer.completed` {from_mrn}: offboarding items waiting for the member's files to move are done. */
const onFilesTransferred = subscription('core.files.transfer.completed', (event, ctx) => filesTransferred(ctx, event.payload.from_mrn));

/** `core.leaves.time_off.cleared` {worker_id}: offboarding items waiting for the worker's future time off to be cancelled are done. */
const onTimeOffCleared = subscription('core.leaves.time_off.cleared', (event, ctx) => timeOffCleared(ctx, event.payload.worker_id));

/** `core.tasks.member.released` {member_mrn}: offboarding items waiting for the member's tasks to be unassigned are done. */
const onTasksReleased = subscription('core.tasks.member.released', (event, ctx) => tasksReleased(ctx, event.payload.member_mrn));

type LocationAction = 'core.settings.location.created' | 'core.settings.location.updated' | 'core.settings.location.deleted' | 'core.settings.location.announced';

/** `core.settings.location.*`: the app's copy of Settings' locations follows (a deletion stays as a tombstone; an announcement, after an install, brings what the copy missed). */
const onLocation = (action: LocationAction) =>
  subscription(action, (event, ctx) => keepLocation(ctx, event.payload as unknown as LocationPayload, action === 'core.settings.location.deleted'));

/** `core.account.application.installed` {app_slug}: every department, worker and contract is announced, for the copies of the app just installed. */
const onInstalled = subscription('core.account.application.installed', (event, ctx) => announceRecords(ctx, event.payload.app_slug));

export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'system.workspace.member.added': onMemberAdded,
  'core.account.member.removed': onMemberRemoved,
  'core.ats.application.hired': onHired,
  'core.workers.change.scheduled': onChangeDue,
  'core.files.transfer.completed': onFilesTransferred,
  'core.leaves.time_off.cleared': onTimeOffCleared,
  'core.tasks.member.released': onTasksReleased,
  'core.settings.location.created': onLocation('core.settings.location.created'),
  'core.settings.location.updated': onLocation('core.settings.location.updated'),
  'core.settings.location.deleted': onLocation('core.settings.location.deleted'),
  'core.settings.location.announced': onLocation('core.settings.location.announced'),
  'core.account.application.installed': onInstalled,
};
