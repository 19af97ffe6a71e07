/**
 * Member-reference guard over the routes of every app of the root wpk.config.json, present and
 * future: a body field whose name says it names a person (an assignee, a participant, an
 * evaluator, an owner, a member) must be declared with `Joi.memberId()` or `Joi.memberMrn()`, so
 * the platform refuses, before the handler, any value that is not a member of the request's
 * workspace (docs/writing-an-app.md, "The app kit"). That the platform then checks every declared
 * field is proven once, for any app, by packages/testing/test/members.test.ts.
 */
import test from 'ava';
import { Joi, MEMBER_REFERENCE_META } from '@wpk/sdk';
import { loadApps, readProjectConfig } from '../src/apps/index.js';
import { ROOT_DIR } from './helpers/guard.js';

/** A field named for a person: `member_id`, `assignee_ids`, `evaluator_mrn`, `participant_mrns`, `default_interviewers`, ... */
const PERSON = /^(?:[a-z0-9]+_)*(?:member|assignee|participant|attendee|evaluator|owner|approver|interviewer|recruiter|hiring_manager|referrer|reviewer|signer|organizer|invitee|manager)s?(?:_(?:id|ids|mrn|mrns))?$/;

interface Description {
  type?: string;
  metas?: Array<Record<string, unknown>>;
  keys?: Record<string, Description>;
  items?: Description[];
  matches?: Array<{ schema?: Description; then?: Description; otherwise?: Description }>;
}

/** The string fields of a body schema that are named for a person, and whether each is declared a member reference. */
function personFields(description: Description | undefined, path = '', name = ''): Array<{ path: string; declared: boolean; exempt: boolean }> {
  if (!description) return [];
  const found: Array<{ path: string; declared: boolean; exempt: boolean }> = [];
  if (description.type === 'string' && PERSON.test(name)) {
    const marks = (description.metas ?? []).filter((meta) => MEMBER_REFERENCE_META in meta).map((meta) => meta[MEMBER_REFERENCE_META]);
    found.push({ path, declared: marks.some((mark) => mark && typeof mark === 'object'), exempt: marks.includes(false) });
  }
  for (const [key, child] of Object.entries(description.keys ?? {})) found.push(...personFields(child, path ? `${path}.${key}` : key, key));
  for (const item of description.items ?? []) found.push(...personFields(item, `${path}[]`, name));
  for (const match of description.matches ?? []) for (const branch of [match.schema, match.then, match.otherwise]) found.push(...personFields(branch, path, name));
  return found;
}

test('every body field of an app route that names a person is a member reference the platform checks', async (t) => {
  const project = await readProjectConfig(ROOT_DIR);
  const apps = await loadApps(project.apps, ROOT_DIR);
  t.true(apps.length >= 13, 'the first-party apps are loaded');
  const undeclared: string[] = [];
  let declared = 0;
  for (const app of apps) {
    for (const route of app.definition?.routes ?? []) {
      const payload = route.validate?.payload;
      if (!payload) continue;
      for (const field of personFields(payload.describe() as Description)) {
        if (field.declared) declared += 1;
        else if (!field.exempt) undeclared.push(`${app.namespace} ${route.method} ${route.path}: ${field.path} names a person but is not declared with Joi.memberId() or Joi.memberMrn()`);
      }
    }
  }
  t.deepEqual(undeclared, []);
  t.true(declared >= 20, `${declared} member references declared`);
});

test('the guard recognises the string fields named for a person, declared or not, and only those', (t) => {
  const schema = Joi.object({
    assignee_ids: Joi.array().items(Joi.memberId()),
    owner_mrn: Joi.string(),
    panel: Joi.array().items(Joi.object({ member_mrn: Joi.memberMrn(), role: Joi.string() })),
    default_interviewers: Joi.array().items(Joi.string()),
    max_participants: Joi.number(),
    votes_per_member: Joi.number(),
    board_id: Joi.string(),
    company_mrn: Joi.string(),
    username: Joi.string(),
  });
  t.deepEqual(personFields(schema.describe() as Description), [
    { path: 'assignee_ids[]', declared: true, exempt: false },
    { path: 'owner_mrn', declared: false, exempt: false },
    { path: 'panel[].member_mrn', declared: true, exempt: false },
    { path: 'default_interviewers[]', declared: false, exempt: false },
  ]);
});
