import test from 'ava';
import manifest from '../app.json' with { type: 'json' };
import { checkMatrixRows, ok } from '@wpk/testing';
import { startContactsWorld } from './helpers/world.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000abc';
const COMPANY = 'mrn:companies:company:00000000-0000-4000-8000-0000000000c1';

const world = await startContactsWorld('contacts');
test.after.always(() => world.close());

/** Row counts of the app's tables in the test workspace. */
const counts = async () =>
  (await world.platform.query<{ contacts: number; keys: number }>('SELECT (SELECT count(*)::int FROM app_contacts.contacts WHERE workspace_id = :id) AS contacts, (SELECT count(*)::int FROM app_contacts.contact_keys WHERE workspace_id = :id) AS keys', { id: world.workspace.id }))[0];

/** Deletes every contact (tests that count start from an empty book). */
const clear = async () => {
  for (const contact of (await world.owner.request('GET', '/contacts?per_page=100')).body.data) ok(await world.owner.request('DELETE', `/contacts/${contact.id}`));
  world.takeEvents();
};

test.serial('POST /contacts creates a contact with every field people expect and emits contact.created once', async (t) => {
  world.takeEvents();
  const reply = await world.owner.request('POST', '/contacts', {
    given_name: ' Ada ',
    family_name: 'Lovelace',
    prefix: 'Countess',
    nickname: 'Ada',
    organization: 'Analytical Engines Ltd',
    job_title: 'Programmer',
    company_mrn: COMPANY.toUpperCase().replace('MRN:COMPANIES:COMPANY:', 'mrn:companies:company:'),
    emails: [{ value: 'ada@example.org', type: 'work' }, { value: 'ADA@example.org', type: 'home' }, { value: 'ada@home.example' }],
    phones: [{ value: '+44 20 7946 0000', type: 'mobile' }],
    addresses: [{ type: 'home', street: '12 St James Square', city: 'London', country: 'UK', region: '' }],
    birthday: '1815-12-10',
    notes: 'First programmer',
    tags: ['VIP', 'vip', 'History '],
  });
  t.is(reply.status, 200);
  const contact = reply.body.data;
  t.deepEqual(reply.body.links, { self: `/contacts/${contact.id}` });
  t.deepEqual({ ...contact, created_at: undefined, updated_at: undefined }, {
    id: contact.id,
    mrn: `mrn:contacts:contact:${contact.id}`,
    display_name: 'Ada Lovelace',
    given_name: 'Ada',
    family_name: 'Lovelace',
    middle_name: null,
    prefix: 'Countess',
    suffix: null,
    nickname: 'Ada',
    organization: 'Analytical Engines Ltd',
    job_title: 'Programmer',
    company_mrn: COMPANY,
    company: { mrn: COMPANY, name: null },
    member_mrn: null,
    emails: [{ value: 'ada@example.org', type: 'work' }, { value: 'ada@home.example', type: 'other' }],
    phones: [{ value: '+44 20 7946 0000', type: 'mobile' }],
    addresses: [{ type: 'home', street: '12 St James Square', city: 'London', country: 'UK' }],
    birthday: '1815-12-10',
    notes: 'First programmer',
    tags: ['VIP', 'History'],
    source: 'manual',
    creator_id: world.owner.id,
    created_at: undefined,
    updated_at: undefined,
  });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.contacts.contact.created', payload: { contact_id: contact.id, contact_mrn: contact.mrn, display_name: 'Ada Lovelace', primary_email: 'ada@example.org', company_mrn: COMPANY, source: 'manual', created_by: world.owner.id } },
  ]);
  t.deepEqual((await world.owner.request('GET', `/contacts/${contact.id}`)).body, reply.body);
});

test.serial('the display name: as given, else the names, else the first email, else the first phone; a contact with none of them is a 400', async (t) => {
  t.is(ok(await world.owner.request('POST', '/contacts', { display_name: 'The Boss', given_name: 'Jo' })).display_name, 'The Boss');
  t.is(ok(await world.owner.request('POST', '/contacts', { emails: [{ value: 'only@mail.example' }] })).display_name, 'only@mail.example');
  const phoneOnly = ok(await world.owner.request('POST', '/contacts', { phones: [{ value: '555 0100' }] }));
  t.is(phoneOnly.display_name, '555 0100');
  // A derived name follows the names; one chosen by hand stays.
  t.is(ok(await world.owner.request('PUT', `/contacts/${phoneOnly.id}`, { given_name: 'Pat' })).display_name, 'Pat');
  const none = await world.owner.request('POST', '/contacts', { notes: 'nobody', display_name: '  ' });
  t.is(none.status, 400);
  t.deepEqual(none.body, { error: 'A contact needs a name, an email or a phone: give display_name, given_name, family_name, emails or phones' });
  await clear();
});

test.serial('bad input is a 400 naming the field, writes nothing and emits nothing', async (t) => {
  world.takeEvents();
  const before = await counts();
  const cases: Array<[unknown, string, string?]> = [
    [{ given_name: 'x'.repeat(101) }, 'given_name length must be less than or equal to 100 characters long', 'given_name'],
    [{ given_name: 'A', emails: [{ value: 'not-an-email' }] }, 'emails[0].value must be a valid email', 'emails[0].value'],
    [{ given_name: 'A', emails: [{ value: 'a@b.example', type: 'office' }] }, 'emails[0].type must be one of [work, home, other]', 'emails[0].type'],
    [{ given_name: 'A', phones: [{ value: 'call me' }] }, 'phones[0].value must hold a digit', 'phones[0].value'],
    [{ given_name: 'A', birthday: '2027-02-30' }, 'birthday must be a real date in YYYY-MM-DD form', 'birthday'],
    [{ given_name: 'A', tags: ['x'.repeat(51)] }, 'tags[0] length must be less than or equal to 50 characters long', 'tags[0]'],
    [{ given_name: 'A', company_mrn: 'mrn:account:member:x' }, 'company_mrn must be a company MRN (mrn:companies:company:{id}), got mrn:account:member:x'],
    [{ given_name: 'A', member_mrn: 'someone' }, 'member_mrn must be a member MRN (mrn:account:member:<id>)', 'member_mrn'],
    [{ given_name: 'A', member_mrn: `mrn:account:member:${UNKNOWN}` }, `member_mrn mrn:account:member:${UNKNOWN} is not a member of this workspace`],
    [{ given_name: 'A', notes: 'x'.repeat(10001) }, 'notes length must be less than or equal to 10000 characters long', 'notes'],
  ];
  for (const [body, error, field] of cases) {
    const reply = await world.owner.request('POST', '/contacts', body);
    t.is(reply.status, 400, JSON.stringify(body).slice(0, 80));
    t.deepEqual(reply.body, field === undefined ? { error } : { error, field }, JSON.stringify(body).slice(0, 80));
  }
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('PUT /contacts/{id} changes the given fields and names them in contact.updated; no change emits nothing; unknown ids are 404', async (t) => {
  const editor = await world.member(['contacts.contacts.create', 'contacts.contacts.edit']);
  const contact = ok(await editor.request('POST', '/contacts', { given_name: 'Grace', family_name: 'Hopper', emails: [{ value: 'grace@navy.example' }], tags: ['Navy'] }));
  world.takeEvents();
  const updated = ok(await editor.request('PUT', `/contacts/${contact.id}`, { job_title: 'Rear Admiral', tags: ['Navy', 'COBOL'], emails: [], phones: [{ value: '+1 555 0101', type: 'work' }] }));
  t.like(updated, { display_name: 'Grace Hopper', job_title: 'Rear Admiral', tags: ['Navy', 'COBOL'], emails: [], phones: [{ value: '+1 555 0101', type: 'work' }] });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.contacts.contact.updated', payload: { contact_id: contact.id, contact_mrn: contact.mrn, display_name: 'Grace Hopper', changed_fields: ['job_title', 'emails', 'phones', 'tags'], updated_by: editor.id } },
  ]);
  t.is((await editor.request('PUT', `/contacts/${contact.id}`, { job_title: 'Rear Admiral' })).status, 200);
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual((await editor.request('PUT', `/contacts/${UNKNOWN}`, { job_title: 'x' })).body, { error: `Contact ${UNKNOWN} not found` });
  t.deepEqual((await editor.request('PUT', `/contacts/${contact.id}`, { company_mrn: 'acme' })).body, { error: 'company_mrn must be a company MRN (mrn:companies:company:{id}), got acme' });
  t.deepEqual(world.takeEvents(), []);
  await clear();
});

test.serial('member_mrn names a member of this workspace: another workspace\'s member is a 400 naming it; a newcomer at once; a member who left stays nameable (a former colleague is still a person)', async (t) => {
  const elsewhere = (await world.otherWorkspace('contacts-elsewhere')).owner;
  world.takeEvents();
  const before = await counts();
  for (const [method, path] of [['POST', '/contacts'], ['PUT', `/contacts/${UNKNOWN}`]] as const) {
    const refused = await world.owner.request(method, path, { given_name: 'Stranger', member_mrn: elsewhere.mrn });
    t.deepEqual([refused.status, refused.body], [400, { error: `member_mrn ${elsewhere.mrn} is not a member of this workspace` }], method);
  }
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);

  const newcomer = await world.member([]);
  const colleague = ok(await world.owner.request('POST', '/contacts', { given_name: 'New', family_name: 'Comer', member_mrn: newcomer.mrn }));
  t.is(colleague.member_mrn, newcomer.mrn);
  t.is((await world.owner.delete(`/members/${newcomer.id}`)).status, 200);
  // The whole contact sent back as it was read, after its member left: still accepted.
  const { id: _id, mrn: _mrn, company: _company, source: _source, creator_id: _creator, created_at: _created, updated_at: _updated, ...fields } = colleague;
  t.like(ok(await world.owner.request('PUT', `/contacts/${colleague.id}`, { ...fields, job_title: 'Alumnus' })), { member_mrn: newcomer.mrn, job_title: 'Alumnus' });
  t.like(ok(await world.owner.request('POST', '/contacts', { display_name: 'Comer (personal)', member_mrn: newcomer.mrn })), { member_mrn: newcomer.mrn });
  await clear();
});

test.serial('DELETE /contacts/{id} removes the contact and its keys, emits contact.deleted; a second delete is a 404', async (t) => {
  const contact = ok(await world.owner.request('POST', '/contacts', { display_name: 'Temp', emails: [{ value: 'temp@example.com' }] }));
  world.takeEvents();
  t.deepEqual((await world.owner.request('DELETE', `/contacts/${contact.id}`)).body, { data: { id: contact.id, mrn: contact.mrn, deleted: true }, links: { self: `/contacts/${contact.id}` } });
  t.deepEqual(world.takeEvents(), [{ action: 'core.contacts.contact.deleted', payload: { contact_id: contact.id, contact_mrn: contact.mrn, display_name: 'Temp', deleted_by: world.owner.id } }]);
  t.deepEqual(await counts(), { contacts: 0, keys: 0 });
  t.deepEqual((await world.owner.request('DELETE', `/contacts/${contact.id}`)).body, { error: `Contact ${contact.id} not found` });
  t.deepEqual((await world.owner.request('GET', '/contacts/whatever')).body, { error: 'Contact whatever not found' });
});

test.serial('GET /contacts lists by display name in the collection envelope; q, tag, company_mrn and email filter', async (t) => {
  for (const body of [
    { display_name: 'Charlie Day', emails: [{ value: 'charlie@paddys.example' }], tags: ['Gang'] },
    { display_name: 'Alice Liddell', organization: 'Wonderland Inc', company_mrn: COMPANY },
    { display_name: 'Bob Belcher', phones: [{ value: '+1 555 0199' }], tags: ['Burgers', 'gang'] },
  ]) ok(await world.owner.request('POST', '/contacts', body));
  const page = await world.owner.request('GET', '/contacts?per_page=2');
  t.deepEqual(page.body.data.map((contact: any) => contact.display_name), ['Alice Liddell', 'Bob Belcher']);
  t.deepEqual(page.body.pagination, { page: 1, per_page: 2, total: 3, pages: 2 });
  const names = async (query: string) => (await world.owner.request('GET', `/contacts?${query}`)).body.data.map((contact: any) => contact.display_name);
  t.deepEqual(await names('q=wonder'), ['Alice Liddell']);
  t.deepEqual(await names('q=PADDYS'), ['Charlie Day']);
  t.deepEqual(await names('q=0199'), ['Bob Belcher']);
  t.deepEqual(await names('tag=Gang'), ['Charlie Day']);
  t.deepEqual(await names(`company_mrn=${COMPANY}`), ['Alice Liddell']);
  t.deepEqual(await names('email=Charlie@Paddys.example'), ['Charlie Day']);
  const other = await world.platform.workspace('contacts-other');
  await other.install('contacts', { access_policy: 'everyone' });
  t.deepEqual((await other.owner.request('GET', '/contacts')).body.data, [], 'another workspace sees none of them');
  await clear();
});

test.serial('GET /contacts/duplicates groups contacts sharing an email, a phone or a full name, transitively; POST merges them into one', async (t) => {
  const a = ok(await world.owner.request('POST', '/contacts', { given_name: 'Jon', family_name: 'Snow', emails: [{ value: 'jon@wall.example' }], tags: ['North'], notes: 'Knows nothing' }));
  const b = ok(await world.owner.request('POST', '/contacts', { display_name: 'J. Snow', emails: [{ value: 'JON@wall.example', type: 'work' }], phones: [{ value: '+1 (555) 010-2000' }], job_title: 'Lord Commander' }));
  const c = ok(await world.owner.request('POST', '/contacts', { display_name: 'Aegon', phones: [{ value: '15550102000' }], tags: ['north', 'Targaryen'], notes: 'Actually a Targaryen' }));
  const d = ok(await world.owner.request('POST', '/contacts', { given_name: 'Arya', family_name: 'Stark' }));
  const e = ok(await world.owner.request('POST', '/contacts', { given_name: 'arya', family_name: ' STARK ', emails: [{ value: 'arya@winterfell.example' }] }));
  ok(await world.owner.request('POST', '/contacts', { display_name: 'Unique Person' }));
  const groups = await world.owner.request('GET', '/contacts/duplicates');
  t.deepEqual(groups.body.pagination, { page: 1, per_page: 25, total: 2, pages: 1 });
  t.deepEqual(
    groups.body.data.map((group: any) => [group.contact_ids, group.reasons]),
    [
      [[d.id, e.id], [{ kind: 'name', value: 'arya stark' }]],
      [[a.id, b.id, c.id], [{ kind: 'email', value: 'jon@wall.example' }, { kind: 'phone', value: '15550102000' }]],
    ],
  );
  t.is(groups.body.data[0].contacts[0].display_name, 'Arya Stark');

  world.takeEvents();
  t.deepEqual((await world.owner.request('POST', `/contacts/${a.id}/merges`, { contact_ids: [a.id] })).body, { error: `contact_ids must not include the contact merged into (${a.id})` });
  t.deepEqual((await world.owner.request('POST', `/contacts/${a.id}/merges`, { contact_ids: [b.id, b.id] })).body, { error: 'contact_ids must not name a contact twice' });
  t.deepEqual((await world.owner.request('POST', `/contacts/${a.id}/merges`, { contact_ids: [b.id, UNKNOWN] })).body, { error: `Contact ${UNKNOWN} not found` });
  t.deepEqual(world.takeEvents(), []);
  const merged = ok(await world.owner.request('POST', `/contacts/${a.id}/merges`, { contact_ids: [b.id, c.id] }));
  t.like(merged, {
    id: a.id,
    display_name: 'Jon Snow',
    job_title: 'Lord Commander',
    emails: [{ value: 'jon@wall.example', type: 'other' }],
    phones: [{ value: '+1 (555) 010-2000', type: 'other' }],
    tags: ['North', 'Targaryen'],
    notes: 'Knows nothing\n\nActually a Targaryen',
  });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.contacts.contact.merged', payload: { contact_id: a.id, contact_mrn: a.mrn, display_name: 'Jon Snow', merged_ids: [b.id, c.id], merged_mrns: [b.mrn, c.mrn], merged_by: world.owner.id } },
  ]);
  t.is((await world.owner.request('GET', `/contacts/${b.id}`)).status, 404);
  t.deepEqual((await world.owner.request('GET', '/contacts/duplicates')).body.data.map((group: any) => group.contact_ids), [[d.id, e.id]]);
  const editorOnly = await world.member(['contacts.contacts.edit']);
  t.deepEqual((await editorOnly.request('POST', `/contacts/${d.id}/merges`, { contact_ids: [e.id] })).body, { error: 'Missing permission: contacts.contacts.delete' });
  await clear();
});

test.serial('POST /contacts/imports takes vCard 4.0 and 3.0 cards, all or none; GET /contacts/vcard exports 4.0 that imports back the same', async (t) => {
  world.takeEvents();
  const vcard = [
    'BEGIN:VCARD', 'VERSION:4.0', 'FN:Simon Perreault', 'N:Perreault;Simon;;;', 'ORG:Viagenie', 'TEL;VALUE=uri;TYPE="work,voice":tel:+1-418-656-9254', 'EMAIL;TYPE=work:simon.perreault@viagenie.ca', 'CATEGORIES:IETF,Authors', 'END:VCARD',
    'BEGIN:VCARD', 'VERSION:3.0', 'FN:Jane Doe', 'N:Doe;Jane;;;', 'EMAIL;TYPE=INTERNET:jane@example.org', 'BDAY:19850412', 'NOTE:Line 1\\nLine 2', 'END:VCARD',
  ].join('\r\n');
  const imported = await world.owner.request('POST', '/contacts/imports', { vcard });
  t.is(imported.status, 200);
  t.is(imported.body.data.created, 2);
  t.deepEqual(imported.body.links, { self: '/contacts/imports', contacts: '/contacts' });
  const events = world.takeEvents();
  t.deepEqual(events.map((event) => [event.action, event.payload.display_name, event.payload.source]), [
    ['core.contacts.contact.created', 'Simon Perreault', 'import'],
    ['core.contacts.contact.created', 'Jane Doe', 'import'],
  ]);
  const jane = ok(await world.owner.request('GET', `/contacts/${imported.body.data.contact_ids[1]}`));
  t.like(jane, { display_name: 'Jane Doe', given_name: 'Jane', family_name: 'Doe', birthday: '1985-04-12', notes: 'Line 1\nLine 2', emails: [{ value: 'jane@example.org', type: 'other' }], source: 'import' });

  const before = await counts();
  const refusals: Array<[string, string]> = [
    ['not a vcard', 'vcard: line 1 is not a vCard content line'],
    ['BEGIN:VCARD\nVERSION:4.0\nFN:ok\nEND:VCARD\nBEGIN:VCARD\nVERSION:4.0\nEMAIL:broken\nEND:VCARD', 'card 2: EMAIL "broken" is not an email address'],
    ['BEGIN:VCARD\nVERSION:4.0\nNOTE:nameless\nEND:VCARD', 'card 1: A contact needs a name, an email or a phone: give display_name, given_name, family_name, emails or phones'],
    ['BEGIN:VCARD\nVERSION:4.0\nFN:X\nBDAY:20270230\nEND:VCARD', 'card 1: BDAY 2027-02-30 is not a day of the calendar'],
    ['\r\n', 'vcard holds no card (BEGIN:VCARD ... END:VCARD)'],
  ];
  for (const [text, error] of refusals) t.deepEqual((await world.owner.request('POST', '/contacts/imports', { vcard: text })).body, { error }, text);
  t.is((await world.owner.request('PUT', '/apps/contacts/settings', { suggestions_enabled: true, max_import_contacts: 1 })).status, 200);
  t.deepEqual((await world.owner.request('POST', '/contacts/imports', { vcard })).body, { error: 'vcard holds 2 cards, more than 1 (settings: max_import_contacts)' });
  t.is((await world.owner.request('PUT', '/apps/contacts/settings', { suggestions_enabled: true, max_import_contacts: 1000 })).status, 200);
  t.deepEqual(await counts(), before);
  t.deepEqual(world.takeEvents(), []);

  const reply = await world.owner.request('GET', '/contacts/vcard');
  t.is(reply.status, 200);
  t.is(reply.headers['content-type'], 'text/vcard; charset=utf-8');
  t.is(reply.headers['content-disposition'], `attachment; filename="contacts.vcf"; filename*=UTF-8''contacts.vcf`);
  const exported = reply.body as string;
  t.is(typeof exported, 'string', 'the body is the vCard itself, not JSON');
  t.true(exported.startsWith('BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:'));
  t.true(exported.includes('FN:Jane Doe\r\nN:Doe;Jane;;;\r\nEMAIL;TYPE=other:jane@example.org\r\nBDAY:19850412\r\nNOTE:Line 1\\nLine 2\r\nEND:VCARD\r\n'));
  const cards = (text: string) => text.split('BEGIN:VCARD').length - 1;
  t.is(cards(exported), 2);
  const only = await world.owner.request('GET', `/contacts/vcard?ids=${jane.id}`);
  t.is(cards(only.body), 1);
  t.true(only.body.includes(`UID:urn:uuid:${jane.id}`));
  t.is(cards((await world.owner.request('GET', '/contacts/vcard?tag=IETF')).body), 1);
  await clear();
  const again = ok(await world.owner.request('POST', '/contacts/imports', { vcard: exported }));
  t.is(again.created, 2);
  const strip = (contact: any) => ({ ...contact, id: undefined, mrn: undefined, created_at: undefined, updated_at: undefined, source: undefined });
  const reread = (await world.owner.request('GET', '/contacts')).body.data.map(strip);
  t.deepEqual(reread.map((contact: any) => contact.display_name), ['Jane Doe', 'Simon Perreault']);
  t.like(reread[1], { organization: 'Viagenie', phones: [{ value: '+1-418-656-9254', type: 'work' }], tags: ['IETF', 'Authors'] });
  await clear();
});

test.serial('contacts are searchable through GET /search by name and email, and follow updates and deletes', async (t) => {
  const contact = ok(await world.owner.request('POST', '/contacts', { given_name: 'Quentin', family_name: 'Quokka', job_title: 'Ranger', organization: 'Rottnest', emails: [{ value: 'q@rottnest.example' }] }));
  const found = async (q: string) => (await world.owner.request('GET', `/search?app=contacts&q=${q}`)).body.data.map((hit: any) => [hit.type, hit.title, hit.subtitle, hit.url]);
  t.deepEqual(await found('quokka'), [['contact', 'Quentin Quokka', 'Ranger · Rottnest', `/contacts/${contact.id}`]]);
  t.deepEqual(await found('rottnest.example'), [['contact', 'Quentin Quokka', 'Ranger · Rottnest', `/contacts/${contact.id}`]]);
  ok(await world.owner.request('PUT', `/contacts/${contact.id}`, { family_name: 'Wombat' }));
  t.deepEqual(await found('quokka'), []);
  t.deepEqual(await found('wombat'), [['contact', 'Quentin Wombat', 'Ranger · Rottnest', `/contacts/${contact.id}`]]);
  // A full re-index writes every contact's document again, as the writes did.
  const all = (await world.query<{ n: number }>('SELECT count(*)::int AS n FROM app_contacts.contacts WHERE workspace_id = :w', { w: world.workspaceId }))[0].n;
  const reindexed = await world.platform.runtime.reindexSearch({ app: 'contacts', workspaceId: world.workspaceId });
  t.deepEqual(reindexed.map((row) => [row.app, row.type, row.documents]), [['contacts', 'contact', all]]);
  t.deepEqual(await found('wombat'), [['contact', 'Quentin Wombat', 'Ranger · Rottnest', `/contacts/${contact.id}`]]);
  ok(await world.owner.request('DELETE', `/contacts/${contact.id}`));
  t.deepEqual(await found('wombat'), []);
});

test('the permission matrix: every route refuses a member without its keys with the exact 403 and lets a holder through', async (t) => {
  const rows = await world.workspace.permissionMatrix('contacts');
  t.is(rows.length, manifest.authorization.length);
  checkMatrixRows(t, rows);
});

test('a member whose role may not open the app gets "You don\'t have access to this app" on every route', async (t) => {
  const role = await world.workspace.role('Not in contacts', { contacts: ['contacts.*'] });
  const outsider = await world.workspace.member({ roles: [role] });
  for (const entry of manifest.authorization) {
    const reply = await outsider.request(entry.method, entry.path.replace(/\{[a-z_]+\}/g, UNKNOWN), entry.method === 'GET' || entry.method === 'DELETE' ? undefined : {});
    t.deepEqual([reply.status, reply.body], [403, { error: "You don't have access to this app" }], `${entry.method} ${entry.path}`);
  }
});

test('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
