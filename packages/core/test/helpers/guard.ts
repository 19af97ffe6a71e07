/**
 * What the route-table guards (guard-*.test.ts) share: a runtime booted with core plus every app
 * of the repository's root wpk.config.json, two seeded workspaces, the route table read as data
 * (which parts of a request each route validates, a well-formed sample of each), and one query
 * that counts the rows of every table of `platform` and of each app's schema.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { RequestRoute } from '@hapi/hapi';
import { QueryTypes } from 'sequelize';
import type { RuntimeOptions } from '../../src/index.js';
import { SmtpSink, linkIn } from './identity-mail.js';
import { json, keyedWorkspace, type KeyedWorkspace } from './keys.js';
import { apiHeaders, startTestRuntime, type TestRuntime } from './runtime.js';
import { CALLS_FIELD_KINDS, CALLS_PARAM_KINDS, seedCalls, type CallsSeedKind } from './seeds/calls.js';
import { MEETINGS_FIELD_KINDS, MEETINGS_PARAM_KINDS, seedMeetings, type MeetingsSeedKind } from './seeds/meetings.js';
import { ROOMS_FIELD_KINDS, ROOMS_PARAM_KINDS, seedRooms, type RoomsSeedKind } from './seeds/rooms.js';
import { CANVAS_FIELD_KINDS, CANVAS_PARAM_KINDS, CANVAS_UNSEEDABLE, seedCanvas, type CanvasSeedKind } from './seeds/canvas.js';
import { ATTENDANCE_FIELD_KINDS, ATTENDANCE_PARAM_KINDS, seedAttendance, type AttendanceSeedKind } from './seeds/attendance.js';
import { SETTINGS_PARAM_KINDS, seedSettings, type SettingsSeedKind } from './seeds/settings.js';
import { WORKERS_FIELD_KINDS, WORKERS_PARAM_KINDS, seedWorkers, type WorkersSeedKind } from './seeds/workers.js';
import { FEEDS_PARAM_KINDS, seedFeeds, type FeedsSeedKind } from './seeds/feeds.js';
import { GROWTH_FIELD_KINDS, GROWTH_PARAM_KINDS, seedGrowth, type GrowthSeedKind } from './seeds/growth.js';
import { LEAVES_FIELD_KINDS, LEAVES_PARAM_KINDS, seedLeaves, type LeavesSeedKind } from './seeds/leaves.js';
import { SIGN_PARAM_KINDS, seedSign, type SignSeedKind } from './seeds/sign.js';
import { CRM_FIELD_KINDS, CRM_PARAM_KINDS, seedCrm, type CrmSeedKind } from './seeds/crm.js';
import { SLIDES_PARAM_KINDS, seedSlides, type SlidesSeedKind } from './seeds/slides.js';
import { seedTables, TABLES_FIELD_KINDS, TABLES_PARAM_KINDS, type TablesSeedKind } from './seeds/tables.js';
import { PAPERS_FIELD_KINDS, PAPERS_PARAM_KINDS, seedPapers, type PapersSeedKind } from './seeds/papers.js';
import { seedWands, WANDS_FIELD_KINDS, WANDS_PARAM_KINDS, type WandsSeedKind } from './seeds/wands.js';
import { seedWiki, WIKI_FIELD_KINDS, WIKI_PARAM_KINDS, type WikiSeedKind } from './seeds/wiki.js';

/** The repository root: its wpk.config.json names every app the platform ships with. */
export const ROOT_DIR = fileURLToPath(new URL('../../../../', import.meta.url));

/** A runtime with the root config's apps, a real SMTP sink (mailed tokens) and cheap hashing. */
export interface GuardRuntime extends TestRuntime {
  smtp: SmtpSink;
  /** The answer of one request, as server.inject gives it. */
  inject(request: GuardRequest): Promise<{ statusCode: number; payload: string; headers: Record<string, unknown> }>;
}

/** One request of a guard: `payload` is sent as given (a string or Buffer is sent raw). */
export interface GuardRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export async function startGuardRuntime(): Promise<GuardRuntime> {
  const smtp = await SmtpSink.start();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'wpk-guard-'));
  let env: TestRuntime;
  try {
    env = await startTestRuntime({ projectDir: ROOT_DIR, smtpUrl: smtp.url, dataDir, scryptLogN: 10 } as RuntimeOptions);
  } catch (error) {
    await smtp.stop();
    throw error;
  }
  return {
    ...env,
    smtp,
    inject: (request) => env.runtime.server.inject({ method: request.method, url: request.url, headers: request.headers, payload: request.payload }) as never,
    async close() {
      try {
        await env.close();
      } finally {
        await smtp.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** What a guard seeds in a workspace, by kind; path parameters are filled from these. */
export type SeedKind =
  | 'workspace' | 'member' | 'role' | 'key' | 'invitation' | 'notification' | 'board' | 'task' | 'topic' | 'comment' | 'deliverable' | 'view' | 'schedule' | 'company' | 'contact' | 'suggestion' | 'account' | 'bill' | 'budget' | 'file' | 'version' | 'upload' | 'member_mrn'
  | 'mail_domain' | 'mail_mailbox' | 'mail_key' | 'mail_group' | 'mail_message' | 'mail_group_message' | 'mail_signature' | 'mail_filter' | 'mail_blocked' | 'mail_draft'
  | 'invoice' | 'thread' | 'payment_method'
  | 'chat' | 'message' | 'chat_list'
  | CallsSeedKind
  | RecruitingSeedKind | RoomsSeedKind | MeetingsSeedKind
  | CanvasSeedKind | AttendanceSeedKind | SettingsSeedKind | WorkersSeedKind | FeedsSeedKind | GrowthSeedKind | LeavesSeedKind | SignSeedKind | CrmSeedKind | TablesSeedKind | PapersSeedKind | SlidesSeedKind | WandsSeedKind | WikiSeedKind;

/** What the Recruiting app (`ats`) seeds, when the config loads it. */
type RecruitingSeedKind = 'pipeline' | 'stage' | 'job' | 'candidate' | 'application' | 'interview' | 'evaluation' | 'offer' | 'messageTemplate' | 'embed' | 'selfScheduleToken';

/** A workspace with one of everything, its owner's full-access key and a joined member. */
export interface SeededWorkspace extends KeyedWorkspace {
  ids: Record<SeedKind, string>;
  /** A full-access key of the plain member (used to file an access request). */
  memberKey: string;
  /** Text every seeded name of this workspace contains: an answer carrying it shows its data. */
  marker: string;
}

/**
 * Seeds a workspace through the API, as its owner: the tasks app installed, a member, a role, a
 * scoped key, an open invitation (token from the mail), a notification (the member asks for
 * access), a board with lanes, a task on it with a comment, a deliverable and the member assigned,
 * a topic, a schedule, a view; a company, a contact and a contact suggestion; the chat app installed
 * with a group chat, a message and a list. Every name carries `{subdomain}-secret`.
 */
export async function seedWorkspace(env: GuardRuntime, subdomain: string): Promise<SeededWorkspace> {
  const workspace = await keyedWorkspace(env, subdomain);
  const marker = `${subdomain}-secret`;
  const call = async (method: string, url: string, body?: unknown, key = workspace.ownerKey) => {
    const headers = workspace.as(key, body === undefined ? {} : { 'content-type': 'application/json' });
    const response = await env.inject({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) });
    if (response.statusCode !== 200) throw new Error(`seeding ${subdomain}: ${method} ${url}: ${response.statusCode} ${response.payload}`);
    return json(response).data;
  };
  await call('POST', '/applications/tasks/installations', {});
  const { memberId } = await env.runtime.identity.addMember({ workspaceId: workspace.id, email: `member@${subdomain}.test`, password: 'member-password-1', platformRole: 'member', name: `${marker} member` });
  const { secret: memberKey } = await env.runtime.apiKeys.issueFullAccessKey(workspace.id, memberId, `${marker} member key`);
  const ids = { workspace: workspace.id, member: memberId } as Record<SeedKind, string>;
  ids.role = (await call('POST', '/roles', { name: `${marker} role` })).id;
  ids.key = (await call('POST', '/api-keys', { name: `${marker} key`, full_access: false, scopes: ['tasks.tasks.read'] })).id;
  await call('POST', '/invitations', { email: `invitee@${subdomain}.test`, platform_role: 'member' });
  ids.invitation = new URL(linkIn(await env.smtp.waitFor(`invitee@${subdomain}.test`))).pathname.split('/').pop()!;
  await call('POST', '/applications/tasks/access-requests', { message: `${marker} let me in` }, memberKey);
  ids.notification = (await call('GET', '/notifications'))[0].id;
  await call('PUT', '/applications/tasks/access', { access_policy: 'everyone', allowed_roles: [], redlist: [] });
  ids.board = (await call('POST', '/boards', { title: `${marker} board`, lanes: [`${marker} lane`, 'Done'] })).id;
  ids.task = (await call('POST', '/tasks', { title: `${marker} task`, board_id: ids.board })).id;
  ids.topic = (await call('POST', `/boards/${ids.board}/topics`, { name: `${marker} topic` })).id;
  ids.comment = (await call('POST', `/tasks/${ids.task}/comments`, { body: `${marker} comment` })).id;
  ids.deliverable = (await call('POST', `/tasks/${ids.task}/deliverables`, { title: `${marker} deliverable`, url: `https://example.test/${marker}` })).id;
  ids.schedule = (await call('POST', '/schedules', { name: `${marker} schedule`, start_date: '2027-01-04', end_date: '2027-01-15' })).id;
  ids.view = (await call('POST', '/views', { board_id: ids.board, name: `${marker} view`, tab: 'board' })).id;
  await call('POST', `/boards/${ids.board}/members`, { member_id: memberId, role: 'editor' });
  await call('POST', `/tasks/${ids.task}/assignees`, { member_id: memberId });
  // Companies and Contacts: a company, a contact at it, and the owner's suggestion of the member
  // (Contacts learns interactions from the chat events; delivered as the broker would).
  await call('POST', '/applications/companies/installations', {});
  await call('POST', '/applications/contacts/installations', {});
  ids.company = (await call('POST', '/companies', { name: `${marker} company` })).id;
  ids.contact = (await call('POST', '/contacts', { display_name: `${marker} contact`, company_mrn: `mrn:companies:company:${ids.company}` })).id;
  await env.runtime.apps.dispatch('contacts', { action: 'core.chat.participant.added', payload: { chat_id: `${marker} chat`, member_mrn: `mrn:account:member:${memberId}`, added_by_mrn: `mrn:account:member:${workspace.ownerId}` }, metadata: { workspace_id: workspace.id }, attempt: 1 } as never);
  ids.suggestion = (await call('GET', '/contacts/suggestions'))[0].id;
  // The finance app: installed, its chart seeded (the install event delivered), an account, a bill and a budget.
  await call('POST', '/applications/finance/installations', {});
  await env.runtime.apps.dispatch('finance', { action: 'system.app.installed', payload: { app_slug: 'finance' }, metadata: { workspace_id: workspace.id }, attempt: 1 } as never);
  ids.account = (await call('POST', '/finance/accounts', { code: `${subdomain}-1`.slice(0, 20), name: `${marker} account`, type: 'expense' })).id;
  ids.bill = (await call('POST', '/finance/bills', { date: '2027-01-04', currency: 'USD', memo: `${marker} bill`, items: [{ description: `${marker} item`, amount: 10 }] })).id;
  ids.budget = (await call('POST', '/finance/budgets', { account_id: ids.account, period_start: '2027-01-01', period_end: '2027-03-31', amount: 100, notes: `${marker} budget` })).id;
  // Files: a file with its bytes (through its upload link), its version, an open upload, the member's MRN.
  await call('POST', '/applications/files/installations', { access_policy: 'everyone' });
  const started = await call('POST', '/uploads', { name: `${marker}.txt`, size_bytes: marker.length, content_type: 'text/plain' });
  const link = new URL(started.upload_url);
  const put = await env.inject({ method: 'PUT', url: link.pathname, headers: { host: link.host, 'content-type': 'text/plain' }, payload: marker });
  if (put.statusCode !== 200) throw new Error(`seeding ${subdomain}: PUT upload link: ${put.statusCode} ${put.payload}`);
  const file = await call('POST', `/uploads/${started.id}/completion`);
  ids.file = file.id;
  ids.version = file.version_id;
  ids.upload = (await call('POST', '/uploads', { name: `${marker} pending.txt`, size_bytes: 1 })).id;
  await call('PUT', `/files/${ids.file}/shares/${memberId}`, { role: 'read' });
  ids.member_mrn = `mrn:account:member:${memberId}`;
  // An upgrade issues an invoice, which posts to the workspace's billing thread.
  ids.invoice = (await call('PUT', '/plan', { plan: 'team' })).invoice.id;
  ids.thread = ((await call('GET', '/messages')) as Array<{ id: string; topic: string }>).find((thread) => thread.topic === 'billing')!.id;
  ids.payment_method = (await call('POST', '/payment-methods', { card_number: '4242424242424242', expiry_month: '12', expiry_year: '2035', cvv: '123' })).id;
  if (env.runtime.apps.list().some((app) => app.namespace === 'ats')) Object.assign(ids, await seedRecruiting(call, subdomain, marker, memberId));
  await seedMail(env, workspace.id, workspace.ownerId, ids, call, marker, subdomain);
  // The chat app: a group chat of the owner and the member, with a message, and a personal list.
  await call('POST', '/applications/chat/installations', {});
  await call('PUT', '/applications/chat/access', { access_policy: 'everyone', allowed_roles: [], redlist: [] });
  ids.chat = (await call('POST', '/chats', { type: 'group', name: `${marker} chat`, participant_mrns: [ids.member_mrn] })).id;
  ids.message = (await call('POST', `/chats/${ids.chat}/messages`, { body: `${marker} message` })).id;
  ids.chat_list = (await call('POST', '/chats/lists', { name: `${marker} list` })).id;
  Object.assign(ids, await seedCalls(call, marker, ids.member_mrn));
  Object.assign(ids, await seedRooms(call, marker, ids.member_mrn), await seedMeetings(call, (request) => env.inject(request), marker, ids.member_mrn));
  Object.assign(ids, await seedCanvas(call, async (url, type, body) => {
    const response = await env.inject({ method: 'PUT', url: new URL(url).pathname, headers: { host: new URL(url).host, 'content-type': type }, payload: body });
    if (response.statusCode !== 200) throw new Error(`seeding ${subdomain}: PUT ${url}: ${response.statusCode} ${response.payload}`);
  }, marker));
  Object.assign(ids, await seedAttendance(call, marker));
  Object.assign(ids, await seedSettings(call, marker));
  if (env.runtime.apps.list().some((app) => app.namespace === 'workers')) Object.assign(ids, await seedWorkers(call, marker));
  Object.assign(ids, await seedFeeds(call, marker));
  if (env.runtime.apps.list().some((app) => app.namespace === 'growth')) {
    const deliver = (action: string, payload: Record<string, unknown>) => env.runtime.apps.dispatch('growth', { action, payload, metadata: { workspace_id: workspace.id }, attempt: 1 } as never);
    Object.assign(ids, await seedGrowth(call, deliver, marker, workspace.ownerId, ids.member));
  }
  if (env.runtime.apps.list().some((app) => app.namespace === 'leaves')) {
    const deliver = (action: string, payload: Record<string, unknown>) => env.runtime.apps.dispatch('leaves', { action, payload, metadata: { workspace_id: workspace.id }, attempt: 1 } as never);
    Object.assign(ids, await seedLeaves(call, deliver, marker, { worker: ids.worker, department: ids.department }));
  }
  if (env.runtime.apps.list().some((app) => app.namespace === 'sign')) Object.assign(ids, await seedSign(call, marker));
  if (env.runtime.apps.list().some((app) => app.namespace === 'crm')) Object.assign(ids, await seedCrm(call, marker));
  if (env.runtime.apps.list().some((app) => app.namespace === 'tables')) Object.assign(ids, await seedTables(call, marker));
  if (env.runtime.apps.list().some((app) => app.namespace === 'papers')) Object.assign(ids, await seedPapers(call, marker));
  if (env.runtime.apps.list().some((app) => app.namespace === 'slides')) {
    const deliver = (action: string, payload: Record<string, unknown>) => env.runtime.apps.dispatch('slides', { action, payload, metadata: { workspace_id: workspace.id }, attempt: 1 } as never);
    const put = async (url: string, type: string, body: Buffer) => {
      const response = await env.inject({ method: 'PUT', url: new URL(url).pathname, headers: { host: new URL(url).host, 'content-type': type }, payload: body });
      if (response.statusCode !== 200) throw new Error(`seeding ${subdomain}: PUT ${url}: ${response.statusCode} ${response.payload}`);
    };
    Object.assign(ids, await seedSlides(call, put, deliver, marker, `mrn:account:member:${workspace.ownerId}`));
  }
  if (env.runtime.apps.list().some((app) => app.namespace === 'wands')) Object.assign(ids, await seedWands(call, marker));
  if (env.runtime.apps.list().some((app) => app.namespace === 'wiki')) Object.assign(ids, await seedWiki(call, marker));
  return { ...workspace, ids, memberKey, marker };
}

/** One of each Recruiting record, with a live self-schedule link (its token is the `{token}` of `/ats/self-schedule`). */
async function seedRecruiting(call: (method: string, url: string, body?: unknown) => Promise<any>, subdomain: string, marker: string, memberId: string): Promise<Record<RecruitingSeedKind, string>> {
  await call('POST', '/applications/ats/installations', {});
  const ids = {} as Record<RecruitingSeedKind, string>;
  ids.pipeline = (await call('POST', '/ats/pipelines', { name: `${marker} pipeline` })).id;
  ids.stage = (await call('POST', `/ats/pipelines/${ids.pipeline}/stages`, { name: `${marker} stage`, type: 'applied' })).id;
  ids.job = (await call('POST', '/ats/jobs', { title: `${marker} job`, pipeline_id: ids.pipeline })).id;
  await call('PATCH', `/ats/jobs/${ids.job}/status`, { status: 'open' });
  ids.candidate = (await call('POST', '/ats/candidates', { name: `${marker} candidate`, email: `candidate@${subdomain}.test`, tags: [marker] })).id;
  ids.application = (await call('POST', '/ats/applications', { candidate_id: ids.candidate, job_id: ids.job })).id;
  ids.interview = (await call('POST', `/ats/applications/${ids.application}/interviews`, { title: `${marker} interview` })).id;
  ids.selfScheduleToken = (await call('POST', `/ats/interviews/${ids.interview}/self-schedule`, { slot_1: '2099-01-05T09:00:00Z' })).token;
  ids.evaluation = (await call('POST', `/ats/applications/${ids.application}/evaluations`, { evaluator_mrn: `mrn:account:member:${memberId}` })).id;
  ids.offer = (await call('POST', `/ats/applications/${ids.application}/offers`, { package: { base: 1, currency: 'EUR', notes: marker } })).id;
  ids.messageTemplate = (await call('POST', '/ats/templates', { name: `${marker} template` })).id;
  ids.embed = (await call('POST', '/ats/settings/embeds', { name: `${marker} embed` })).id;
  return ids;
}

/**
 * The mail app's records, as the owner: a domain (verified), a mailbox assigned to the owner (their account)
 * with a signature, a filter, a blocked sender, a draft, an outbox key and a queued message, and
 * a group with the member in it. A group message only arrives over SMTP: one is stored through
 * the app's own inbound code path (the runtime's service host), as the listener would.
 */
async function seedMail(env: GuardRuntime, workspaceId: string, owner: string, ids: Record<SeedKind, string>, call: (method: string, url: string, body?: unknown) => Promise<any>, marker: string, subdomain: string): Promise<void> {
  await call('POST', '/applications/mail/installations', {});
  ids.mail_domain = (await call('POST', '/mail/domains', { name: `${subdomain}-secret.test` })).id;
  // Verified as its DNS check would (a domain's mailboxes send only once it is): verified_at and the claim.
  await env.runtime.db.sequelize.query(
    "UPDATE app_mail.domains SET verified_at = now() WHERE workspace_id = :workspaceId AND id = :id; INSERT INTO platform.name_claims (app, kind, name, workspace_id) VALUES ('mail', 'domain', :name, :workspaceId)",
    { replacements: { workspaceId, id: ids.mail_domain, name: `${subdomain}-secret.test` } },
  );
  ids.mail_mailbox = (await call('POST', '/mail/mailboxes', { domain_id: ids.mail_domain, local_part: 'box', display_name: `${marker} box`, member_id: owner })).id;
  ids.mail_key = (await call('POST', `/mail/mailboxes/${ids.mail_mailbox}/outbox-keys`, { name: `${marker} key` })).id;
  ids.mail_group = (await call('POST', '/mail/groups', { domain_id: ids.mail_domain, local_part: 'team', name: `${marker} group` })).id;
  await call('POST', `/mail/groups/${ids.mail_group}/members`, { member_id: ids.member });
  ids.mail_signature = (await call('POST', `/mail/accounts/${ids.mail_mailbox}/signatures`, { name: `${marker} signature`, text: marker })).id;
  ids.mail_filter = (await call('POST', `/mail/accounts/${ids.mail_mailbox}/filters`, { name: `${marker} filter`, conditions: [{ field: 'subject', operator: 'contains', value: marker }], actions: [{ type: 'flag' }] })).id;
  ids.mail_blocked = (await call('POST', `/mail/accounts/${ids.mail_mailbox}/blocked-senders`, { address: `${marker}@blocked.test` })).id;
  ids.mail_draft = (await call('POST', '/mail/drafts', { account_id: ids.mail_mailbox, subject: `${marker} draft` })).id;
  ids.mail_message = (await call('POST', `/mail/accounts/${ids.mail_mailbox}/messages`, { to: [{ address: `team@${subdomain}-secret.test` }], subject: `${marker} message`, text: marker })).id;
  const groupMessage = (await env.runtime.db.sequelize.query(
    "INSERT INTO app_mail.messages (id, workspace_id, group_id, folder, from_address, subject, text_body, created_at, updated_at) VALUES (gen_random_uuid(), :workspaceId, :groupId, 'inbox', 'someone@elsewhere.test', :subject, :text, now(), now()) RETURNING id",
    { replacements: { workspaceId, groupId: ids.mail_group, subject: `${marker} group message`, text: marker }, type: QueryTypes.SELECT },
  )) as Array<{ id: string }>;
  ids.mail_group_message = groupMessage[0]!.id;
}

/**
 * Headers of an elevated browser session of the workspace's owner (admin mode entered with the
 * password), for the routes an API key cannot reach (deleting the workspace, transferring it).
 */
export async function elevatedOwnerSession(env: GuardRuntime, workspace: KeyedWorkspace): Promise<Record<string, string>> {
  const { Account, Member } = env.runtime.identity.context.models;
  const member = (await Member.findByPk(workspace.ownerId))!;
  const account = (await Account.findByPk(member.account_id))!;
  const session = await env.runtime.identity.sessions.start(member, account);
  const cookie = { cookie: `wpk_session=${session.token}`, 'sec-fetch-site': 'same-origin' };
  const response = await env.inject({ method: 'POST', url: '/elevations', headers: apiHeaders(workspace.subdomain, { ...cookie, 'content-type': 'application/json' }), payload: JSON.stringify({ reason: 'route-table guard', password: 'owner-password-1' }) });
  if (response.statusCode !== 200) throw new Error(`elevation of ${workspace.subdomain}'s owner: ${response.statusCode} ${response.payload}`);
  const rotated = ([] as string[]).concat((response.headers['set-cookie'] as string[] | string | undefined) ?? []).map((value) => value.split(';')[0]).find((value) => value.startsWith('wpk_session='));
  return apiHeaders(workspace.subdomain, { cookie: rotated ?? cookie.cookie, 'sec-fetch-site': 'same-origin' });
}

/** Where a path parameter's value comes from: a seeded record, or a fixed value (with why). */
export type ParamSource = { kind: SeedKind } | { fixed: string; reason: string };

/** Path parameters named the same on every route. */
const PARAM_KINDS: Record<string, SeedKind> = {
  key_id: 'key',
  member_id: 'member',
  role_id: 'role',
  board_id: 'board',
  task_id: 'task',
  topic_id: 'topic',
  view_id: 'view',
  schedule_id: 'schedule',
  notification_id: 'notification',
  deliverable_id: 'deliverable',
  company_id: 'company',
  contact_id: 'contact',
  suggestion_id: 'suggestion',
  account_id: 'account',
  entry_id: 'bill',
  budget_id: 'budget',
  file_id: 'file',
  version_id: 'version',
  upload_id: 'upload',
  member_mrn: 'member_mrn',
  invoice_id: 'invoice',
  thread_id: 'thread',
  payment_method_id: 'payment_method',
  pipeline_id: 'pipeline',
  stage_id: 'stage',
  job_id: 'job',
  candidate_id: 'candidate',
  application_id: 'application',
  interview_id: 'interview',
  evaluation_id: 'evaluation',
  offer_id: 'offer',
  template_id: 'messageTemplate',
  embed_id: 'embed',
};

/** Parameters whose meaning depends on the resource (`/tasks/{id}` vs `/workspaces/{id}`), by first path segment. */
const PARAM_KINDS_BY_RESOURCE: Record<string, Record<string, SeedKind>> = {
  tasks: { id: 'task' },
  mail: {
    domain_id: 'mail_domain',
    mailbox_id: 'mail_mailbox',
    account_id: 'mail_mailbox',
    key_id: 'mail_key',
    group_id: 'mail_group',
    member_id: 'member',
    message_id: 'mail_message',
    signature_id: 'mail_signature',
    filter_id: 'mail_filter',
    blocked_id: 'mail_blocked',
    draft_id: 'mail_draft',
  },
  chats: { id: 'chat', msg_id: 'message', list_id: 'chat_list', member_mrn: 'member_mrn' },
  calls: { ...CALLS_PARAM_KINDS },
  workspaces: { id: 'workspace' },
  invitations: { token: 'invitation' },
  ats: { token: 'selfScheduleToken' },
  ...ROOMS_PARAM_KINDS,
  ...MEETINGS_PARAM_KINDS,
  canvas: CANVAS_PARAM_KINDS,
  ...ATTENDANCE_PARAM_KINDS,
  ...SETTINGS_PARAM_KINDS,
  ...WORKERS_PARAM_KINDS,
  ...FEEDS_PARAM_KINDS,
  ...GROWTH_PARAM_KINDS,
  ...LEAVES_PARAM_KINDS,
  ...SIGN_PARAM_KINDS,
  ...CRM_PARAM_KINDS,
  ...TABLES_PARAM_KINDS,
  ...PAPERS_PARAM_KINDS, ...SLIDES_PARAM_KINDS, ...WANDS_PARAM_KINDS, ...WIKI_PARAM_KINDS,
};

/**
 * Parameters that name nothing a workspace owns, so there is no "B's value" to probe with. Each
 * is listed with its reason; a parameter in neither list fails the tenant guard.
 */
export const UNSEEDABLE: Record<string, { fixed: string; reason: string }> = {
  slug: { fixed: 'tasks', reason: 'an app slug names an app of the runtime, the same in every workspace' },
  'ats.tag': { fixed: 'x', reason: 'a tag is a word on the candidate the route names by candidate_id, which is probed' },
  'feeds.emoji': { fixed: '%F0%9F%91%8D', reason: 'an emoji is the same in every workspace (the seeded post carries no reaction)' },
  'chats.emoji': { fixed: '%F0%9F%91%8D', reason: 'an emoji is the same in every workspace (the seeded message carries no reaction: removing one answers 404)' },
  'boards.key': { fixed: 'lane', reason: 'a task-filter key is a field name of the tasks app (lane, topic, ...), not a record' },
  'assets.file': { fixed: 'app.css', reason: 'a static file of the platform, the same for every workspace' },
  'public.file': { fixed: 'app.css', reason: 'a static file of the platform or of an app, the same for every workspace' },
  'app.path': { fixed: 'boards', reason: "the rest of a shell page's path is the app's own front-end route, handed to its page; the shell serves it alike in every workspace, and what the app then reads goes through the probed API routes" },
  'public.app': { fixed: 'tasks', reason: 'an app namespace names an app of the runtime, the same in every workspace' },
  'password-resets.token': { fixed: 'x', reason: "a reset link belongs to an account, not a workspace: it works on any host (route scope 'any')" },
  'v.version': { fixed: '1.0.0', reason: 'operator admin (/v/admin/…) is served on the base domain only, to an operator credential: no workspace subdomain serves it' },
  'v.note_id': { fixed: '00000000-0000-4000-8000-000000000000', reason: 'operator admin (/v/admin/…) is served on the base domain only, to an operator credential: no workspace subdomain serves it' },
  'v.id': { fixed: '00000000-0000-4000-8000-000000000000', reason: 'operator admin (/v/admin/…) is served on the base domain only, to an operator credential: no workspace subdomain serves it' },
  'v.workspace_id': { fixed: '00000000-0000-4000-8000-000000000000', reason: 'operator admin (/v/admin/…) is served on the base domain only, to an operator credential: no workspace subdomain serves it' },
  'mail.attachment_id': { fixed: '00000000-0000-4000-8000-000000000000', reason: "an attachment is an entry of the message the route names by message_id, which is probed (another workspace's message answers as an unknown one before any attachment is looked at); the seeded messages carry no file" },
  ...CANVAS_UNSEEDABLE,
  'storage.token': { fixed: 'v1.x.y', reason: "a storage link is signed by an app's ctx.storage, and the shipped apps sign none yet; another workspace's link answering like a forged one is tested in storage-apps.test.ts" },
};

/** Where a route's path parameter comes from, or null when nobody has said (a new parameter). */
export function paramSource(routePath: string, param: string): ParamSource | null {
  const resource = routePath.split('/')[1];
  const groupMessage = resource === 'mail' && param === 'message_id' && routePath.startsWith('/mail/groups/') ? 'mail_group_message' : undefined;
  const kind = groupMessage ?? PARAM_KINDS_BY_RESOURCE[resource]?.[param] ?? PARAM_KINDS[param];
  if (kind) return { kind };
  return UNSEEDABLE[`${resource}.${param}`] ?? UNSEEDABLE[param] ?? null;
}

/** The `{name}` parameters of a route pattern, in order. */
export function paramsOf(pattern: string): string[] {
  return [...pattern.matchAll(/\{(\w+)\??\*?\d*\}/g)].map((match) => match[1]);
}

/** A route pattern with each parameter replaced by `values[name]` (URL-encoded unless `raw`). */
export function fillPath(pattern: string, values: Record<string, string>, raw = false): string {
  return pattern.replace(/\{(\w+)\??\*?\d*\}/g, (_match, name: string) => (raw ? values[name] : encodeURIComponent(values[name])));
}

/** The joi description of one part of a route's validation (undefined when none, or not joi). */
export function described(route: RequestRoute, part: 'payload' | 'query' | 'params'): JoiDescription | undefined {
  const schema = (route.settings.validate as Record<string, unknown> | undefined)?.[part] as { describe?: () => JoiDescription } | undefined;
  return schema && typeof schema.describe === 'function' ? schema.describe() : undefined;
}

/** The part of joi's `describe()` output the guards read. */
export interface JoiDescription {
  type: string;
  flags?: { presence?: string; only?: boolean; default?: unknown };
  rules?: Array<{ name: string; args?: Record<string, unknown> }>;
  allow?: unknown[];
  keys?: Record<string, JoiDescription>;
  items?: JoiDescription[];
  matches?: Array<{ schema?: JoiDescription }>;
  dependencies?: Array<{ rel: string; key?: string | null; peers: string[] }>;
}

/**
 * A well-formed value for a field, so a variant that breaks one field is checked with every other
 * field valid (and reaches that field's rule, or the handler). Ids are fresh random UUIDs unless
 * `ids` names the field (then a seeded id of the caller's own workspace).
 */
export function sampleFor(name: string, description: JoiDescription, ids: Record<string, string> = {}): unknown {
  const allowed = description.allow?.filter((value) => value !== null && value !== '');
  if (description.flags?.only && allowed?.length) return allowed[0];
  const rule = (ruleName: string) => description.rules?.find((candidate) => candidate.name === ruleName);
  switch (description.type) {
    case 'string': {
      if (ids[name]) return ids[name];
      if (rule('guid')) return randomUUID();
      if (rule('email')) return `guard-${randomUUID().slice(0, 8)}@example.test`;
      if (rule('uri') || name === 'url') return 'https://example.test/guard';
      if (/(_date|^date)$/.test(name)) return '2027-01-15';
      if (/_at$|^(after|before)$/.test(name)) return '2027-01-15T00:00:00.000Z';
      if (/color/.test(name)) return '#336699';
      // A pattern (a slug, a version): the first plain value it takes, so the field is valid.
      const pattern = /^\/(.*)\/([a-z]*)$/s.exec(String(rule('pattern')?.args?.regex ?? ''));
      if (pattern) {
        const regex = new RegExp(pattern[1]!, pattern[2]);
        const fits = ['guard-probe', 'guard', 'guard_probe', 'GUARD', '1.0.0', '1', 'a'].find((candidate) => regex.test(candidate));
        if (fits) return fits;
      }
      const min = Number(rule('min')?.args?.limit ?? rule('length')?.args?.limit ?? 1);
      const max = Number(rule('max')?.args?.limit ?? rule('length')?.args?.limit ?? 64);
      return 'guard probe text abcdefghijklmnopqrstuvwxyz'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, 20)));
    }
    case 'number': {
      const min = rule('min')?.args?.limit;
      return typeof min === 'number' ? min : 1;
    }
    case 'boolean':
      return false;
    case 'date':
      return '2027-01-15T00:00:00.000Z';
    case 'array': {
      const item = description.items?.[0];
      if (ids[name]) return [ids[name]];
      return item && Number(description.rules?.find((candidate) => candidate.name === 'min')?.args?.limit ?? 0) > 0 ? [sampleFor(name, item, ids)] : [];
    }
    case 'object':
      return description.keys ? sampleBody(description, ids) : {};
    case 'alternatives':
      return description.matches?.[0]?.schema ? sampleFor(name, description.matches[0].schema, ids) : 'guard';
    default:
      return 'guard';
  }
}

/**
 * A well-formed object for a joi object description: every declared key with a sample, or with
 * `requiredOnly` just the required ones (the smallest body that passes, so a variant that breaks
 * one field is judged on that field alone).
 */
export function sampleBody(description: JoiDescription | undefined, ids: Record<string, string> = {}, requiredOnly = false): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(description?.keys ?? {})) {
    if (field.flags?.presence === 'forbidden') continue;
    if (requiredOnly && field.flags?.presence !== 'required') continue;
    body[name] = sampleFor(name, field, ids);
  }
  // Exclusive peers (xor, oxor, nand; `without`): keep the first, so the sample stays valid.
  for (const dependency of description?.dependencies ?? []) {
    const peers = dependency.peers.map(String);
    if (['xor', 'oxor', 'nand'].includes(dependency.rel)) for (const peer of peers.slice(1)) delete body[peer];
    if (dependency.rel === 'without' && dependency.key && dependency.key in body) for (const peer of peers) delete body[peer];
  }
  return body;
}

/**
 * Counts the rows of every table of `platform` and of each app's schema (the event outbox is
 * platform.events), keyed `schema.table`, in one query. Counting a few hundred tables after each of
 * thousands of requests was most of the bad-input guard's time, and most requests write nothing:
 * so every table gets a statement trigger that takes a number from one sequence after each insert,
 * delete or truncate, and each call first reads that sequence. When it has not moved since the last
 * count, no row can have been added or removed and the last counts are the answer; when it has,
 * the tables are counted again (in the same statement as the sequence's value). A sequence is not
 * rolled back with the transaction that used it, so a refused request whose inserts were undone
 * still makes the next call count, and the count decides. (The cluster's transaction snapshot
 * served before, but other databases' transactions move it: in CI it changed on nearly every call.)
 */
export async function rowCounter(env: TestRuntime): Promise<() => Promise<Record<string, number>>> {
  const schemas = ['platform', ...env.runtime.apps.list().map((app) => app.schema)];
  const tables = await env.runtime.db.sequelize.query<{ table_schema: string; table_name: string }>(
    "SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema IN (:schemas) ORDER BY 1, 2",
    { type: QueryTypes.SELECT, replacements: { schemas } },
  );
  const sql = (text: string) => env.runtime.db.sequelize.query(text);
  await sql('CREATE SCHEMA IF NOT EXISTS wpk_guard');
  await sql('CREATE SEQUENCE IF NOT EXISTS wpk_guard.writes');
  await sql("CREATE OR REPLACE FUNCTION wpk_guard.note_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('wpk_guard.writes'); RETURN NULL; END $$");
  for (const { table_schema: schema, table_name: table } of tables) {
    await sql(`CREATE OR REPLACE TRIGGER wpk_guard_writes AFTER INSERT OR DELETE OR TRUNCATE ON "${schema}"."${table}" FOR EACH STATEMENT EXECUTE FUNCTION wpk_guard.note_write()`);
  }
  const markSql = "SELECT last_value::text || ':' || is_called::text AS mark FROM wpk_guard.writes";
  const countSql = `SELECT (${markSql}) AS mark, ${tables.map(({ table_schema: schema, table_name: table }) => `(SELECT count(*) FROM "${schema}"."${table}")::int AS "${schema}.${table}"`).join(', ')}`;
  let last: { mark: string; counts: Record<string, number> } | undefined;
  return async () => {
    if (last) {
      const [{ mark }] = await env.runtime.db.sequelize.query<{ mark: string }>(markSql, { type: QueryTypes.SELECT });
      if (mark === last.mark) return { ...last.counts };
    }
    const [{ mark, ...counts }] = await env.runtime.db.sequelize.query<Record<string, number> & { mark: string }>(countSql, { type: QueryTypes.SELECT });
    last = { mark, counts };
    return { ...counts };
  };
}

/** The tables whose counts differ between two counts, as `table: before → after`. */
export function changedTables(before: Record<string, number>, after: Record<string, number>, ignore: ReadonlySet<string> = new Set()): string[] {
  return Object.keys(after)
    .filter((table) => !ignore.has(table) && before[table] !== after[table])
    .map((table) => `${table}: ${before[table]} → ${after[table]}`);
}

/** Body fields and query parameters that carry ids of the caller's own workspace, by the kind they name. */
const FIELD_KINDS: Record<string, SeedKind> = { ...PARAM_KINDS, domain_id: 'mail_domain', catch_all_mailbox_id: 'mail_mailbox', signature_id: 'mail_signature', role_ids: 'role', task_ids: 'task', assignee_ids: 'member', assignee_id: 'member', creator_id: 'member', blocked_by: 'task', template_id: 'board', contact_ids: 'contact', folder_id: 'file', parent_id: 'file', from_mrn: 'member_mrn', to_mrn: 'member_mrn', member_mrn: 'member_mrn', participant_mrns: 'member_mrn', message_id: 'message', list_id: 'chat_list', ...CALLS_FIELD_KINDS, ...ROOMS_FIELD_KINDS, ...MEETINGS_FIELD_KINDS, ...CANVAS_FIELD_KINDS, ...ATTENDANCE_FIELD_KINDS, ...WORKERS_FIELD_KINDS, ...GROWTH_FIELD_KINDS, ...LEAVES_FIELD_KINDS, ...CRM_FIELD_KINDS, ...TABLES_FIELD_KINDS, ...PAPERS_FIELD_KINDS, ...WANDS_FIELD_KINDS, ...WIKI_FIELD_KINDS };

/** The seeded kind a body field names (member_id → member), or undefined. */
export function fieldKind(field: string): SeedKind | undefined {
  return Object.hasOwn(FIELD_KINDS, field) ? FIELD_KINDS[field] : undefined;
}

/** Fields whose value must name something seeded that is not a record: every seeded board has a lane `Done`. */
const FIELD_VALUES: Record<string, string> = { lane: 'Done', old_name: 'Done' };

/** The seeded ids (and names) of a workspace keyed by the body fields that carry them (for `sampleBody`). */
export function fieldIds(workspace: SeededWorkspace): Record<string, string> {
  return { ...FIELD_VALUES, ...Object.fromEntries(Object.entries(FIELD_KINDS).map(([field, kind]) => [field, workspace.ids[kind]])) };
}

/** The Host of a route's requests for a workspace: its subdomain, or the base domain for platform routes. */
export function hostFor(env: TestRuntime, route: RequestRoute, workspace: KeyedWorkspace): string {
  const scope = route.settings.app?.wpk?.scope ?? 'workspace';
  return scope === 'platform' ? env.runtime.config.baseDomain : `${workspace.subdomain}.${env.runtime.config.baseDomain}`;
}

/**
 * A fingerprint of every row a workspace owns (tables with a `workspace_id` column, in `platform`
 * and the apps' schemas), one md5 per table: equal fingerprints mean nothing of it changed.
 */
export async function workspaceFingerprint(env: TestRuntime, workspaceId: string): Promise<Record<string, string>> {
  const schemas = ['platform', ...env.runtime.apps.list().map((app) => app.schema)];
  const tables = await env.runtime.db.sequelize.query<{ table_schema: string; table_name: string }>(
    "SELECT c.table_schema, c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name) WHERE t.table_type = 'BASE TABLE' AND c.column_name = 'workspace_id' AND c.table_schema IN (:schemas) ORDER BY 1, 2",
    { type: QueryTypes.SELECT, replacements: { schemas } },
  );
  const sql = `SELECT ${tables.map(({ table_schema: schema, table_name: table }) => `(SELECT coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM "${schema}"."${table}" t WHERE t.workspace_id = :workspaceId) AS "${schema}.${table}"`).join(', ')}`;
  const [row] = await env.runtime.db.sequelize.query<Record<string, string>>(sql, { type: QueryTypes.SELECT, replacements: { workspaceId } });
  return row;
}

/** A 1x1 transparent PNG: a well-formed body for image upload routes. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** `?name=sample&...` for the query parameters a route requires ('' when none). */
export function requiredQuery(route: RequestRoute, ids: Record<string, string> = {}): string {
  const keys = Object.entries(described(route, 'query')?.keys ?? {}).filter(([, field]) => field.flags?.presence === 'required');
  return keys.length ? `?${new URLSearchParams(keys.map(([name, field]): [string, string] => [name, String(sampleFor(name, field, ids))])).toString()}` : '';
}
