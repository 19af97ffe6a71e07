import test from 'ava';
import { ok } from '@wpk/testing';
import { startContactsWorld } from './helpers/world.js';

// Contacts and Companies on one platform: the contacts' copy of company names fed by the
// core.companies.* events the Companies app really emits, delivered as the broker delivers them;
// and suggestions from the catalog's chat and calls events, delivered through the signed path.

const world = await startContactsWorld('crossapp');
test.after.always(() => world.close());

/** Delivers every captured event that is due, as the broker would; returns `action: outcome` for Contacts. */
const deliverAll = async () => (await world.platform.deliverDue(world.workspace)).filter((done) => done.outcomes.contacts).map((done) => `${done.event.action}: ${done.outcomes.contacts}`);

test.serial('a contact shows its company by the name Companies announced; a rename reaches it, a deletion clears its company_mrn', async (t) => {
  const owner = world.owner;
  const company = ok(await owner.request('POST', '/companies', { name: 'Acme Corporation', domain: 'acme.example' }));
  t.deepEqual(await deliverAll(), ['core.companies.company.created: handled']);
  const contact = ok(await owner.request('POST', '/contacts', { given_name: 'Wile', family_name: 'Coyote', job_title: 'Genius', company_mrn: company.mrn }));
  t.deepEqual(contact.company, { mrn: company.mrn, name: 'Acme Corporation' });
  const found = async (q: string) => (await owner.request('GET', `/search?app=contacts&q=${q}`)).body.data.map((hit: any) => hit.subtitle);
  t.deepEqual(await found('coyote'), ['Genius · Acme Corporation']);

  ok(await owner.request('PUT', `/companies/${company.id}`, { name: 'Acme Holdings' }));
  t.deepEqual(await deliverAll(), ['core.companies.company.updated: handled']);
  t.deepEqual(ok(await owner.request('GET', `/contacts/${contact.id}`)).company, { mrn: company.mrn, name: 'Acme Holdings' });
  t.deepEqual(await found('coyote'), ['Genius · Acme Holdings']);
  await world.platform.runtime.reindexSearch({ app: 'contacts', workspaceId: world.workspaceId });
  t.deepEqual(await found('coyote'), ['Genius · Acme Holdings'], 'a full re-index takes the name from the copy too');
  t.deepEqual((await owner.request('GET', `/contacts?company_mrn=${company.mrn}`)).body.data.map((row: any) => row.id), [contact.id]);

  world.takeEvents();
  ok(await owner.request('DELETE', `/companies/${company.id}`));
  t.deepEqual(await deliverAll(), ['core.companies.company.deleted: handled']);
  t.deepEqual(world.takeEvents(), [
    { action: 'core.companies.company.deleted', payload: { company_id: company.id, company_mrn: company.mrn, name: 'Acme Holdings', revision: 3, deleted_by: owner.id } },
    { action: 'core.contacts.contact.updated', payload: { contact_id: contact.id, contact_mrn: contact.mrn, display_name: 'Wile Coyote', changed_fields: ['company_mrn'] } },
  ]);
  const after = ok(await owner.request('GET', `/contacts/${contact.id}`));
  t.like(after, { company_mrn: null, company: null });
  t.deepEqual((await owner.request('POST', '/contacts', { display_name: 'Late', company_mrn: company.mrn })).body, { error: `company_mrn ${company.mrn} names a deleted company` });
});

test.serial('the copy keeps the highest revision: late, repeated and out-of-order deliveries change nothing; a tombstone is never revived', async (t) => {
  const owner = world.owner;
  const company = ok(await owner.request('POST', '/companies', { name: 'Globex' }));
  ok(await owner.request('PUT', `/companies/${company.id}`, { name: 'Globex 2' }));
  ok(await owner.request('PUT', `/companies/${company.id}`, { name: 'Globex 3' }));
  const captured = world.platform.events.filter((event) => event.action.startsWith('core.companies.') && event.payload.company_id === company.id);
  t.deepEqual(captured.map((event) => event.payload.revision), [1, 2, 3]);
  // Newest first, then the older ones, then the newest again.
  for (const event of [captured[2], captured[0], captured[1], captured[2]]) await world.deliver(event.action, event.payload);
  const contact = ok(await owner.request('POST', '/contacts', { display_name: 'Hank Scorpio', company_mrn: company.mrn }));
  t.is(contact.company.name, 'Globex 3');
  const rows = await world.platform.query<{ name: string; revision: number; deleted: boolean }>('SELECT name, revision, deleted FROM app_contacts.company_copies WHERE workspace_id = :ws AND company_id = :id', { ws: world.workspace.id, id: company.id });
  t.deepEqual(rows, [{ name: 'Globex 3', revision: 3, deleted: false }]);
  await world.deliver('core.companies.company.deleted', { company_id: company.id, company_mrn: company.mrn, name: 'Globex 3', revision: 4, deleted_by: owner.id });
  await world.deliver('core.companies.company.updated', { ...captured[2].payload });
  t.like(ok(await owner.request('GET', `/contacts/${contact.id}`)), { company_mrn: null, company: null });
  world.platform.takeEvents();
  await deliverAll();
});

test.serial('suggestions: the people a member chats and calls with, ranked by interactions; a redelivery counts nothing twice; big rooms count for no one', async (t) => {
  const keys = ['contacts.suggestions.review', 'contacts.contacts.create', 'contacts.contacts.read'];
  const [alice, bob, carol] = [await world.member(keys), await world.workspace.member({ permissions: keys }), await world.workspace.member({ permissions: keys })];
  world.takeEvents();
  await world.deliver('core.chat.chat.created', { chat_id: 'chat-1', type: 'group', name: 'Launch', creator_mrn: alice.mrn, participant_mrns: [alice.mrn, bob.mrn, carol.mrn] });
  const started = { call_id: 'call-1', join_url: 'https://calls.example/1', title: 'Sync', mode: 'video', participant_mrns: [alice.mrn, bob.mrn], creator_mrn: bob.mrn };
  // The broker's redelivery: the same signed body (same event id), a second attempt.
  const request = world.platform.runtime.events.deliveryRequest({ subscriber: 'contacts', handler: '/events/core-calls-call-started', workspaceId: world.workspace.id, action: 'core.calls.call.started', payload: started });
  for (const attempt of ['1', '2']) {
    const reply = await world.platform.runtime.server.inject({ method: 'POST', url: request.path, headers: { ...request.headers, 'x-broker-delivery-attempt': attempt }, payload: request.body });
    t.deepEqual([reply.statusCode, JSON.parse(reply.payload)], [200, { received: true }]);
  }
  const crowd = await Promise.all(Array.from({ length: 9 }, () => world.workspace.member({ permissions: ['contacts.contacts.read'] })));
  await world.deliver('core.calls.call.started', { call_id: 'all-hands', participant_mrns: [alice.mrn, bob.mrn, ...crowd.map((member) => member.mrn)] });

  const list = async (member: typeof alice, query = '') => (await member.request('GET', `/contacts/suggestions${query}`)).body;
  const mine = await list(alice);
  t.deepEqual(mine.pagination, { page: 1, per_page: 25, total: 2, pages: 1 });
  t.deepEqual(mine.data.map((row: any) => [row.member_mrn, row.interactions, row.sources, row.status, row.name, row.email]), [
    [bob.mrn, 2, ['chat', 'call'], 'pending', null, null],
    [carol.mrn, 1, ['chat'], 'pending', null, null],
  ]);
  // Equal interactions at the same instant: the order between them is the ids'.
  t.deepEqual((await list(carol)).data.map((row: any) => [row.member_mrn, row.interactions]).sort(), [[alice.mrn, 1], [bob.mrn, 1]].sort());
  t.deepEqual(world.takeEvents(), [], 'recording interactions emits nothing');

  // Another member's suggestion is not found; accepting needs a name when the suggestion knows none.
  const bobSuggestion = mine.data[0];
  t.deepEqual((await bob.request('PATCH', `/contacts/suggestions/${bobSuggestion.id}`, { status: 'dismissed' })).body, { error: `Suggestion ${bobSuggestion.id} not found` });
  t.deepEqual((await alice.request('PATCH', `/contacts/suggestions/${bobSuggestion.id}`, { status: 'accepted' })).body, { error: `display_name is required: the suggestion knows no name or email of ${bob.mrn}` });
  t.deepEqual((await alice.request('PATCH', `/contacts/suggestions/${bobSuggestion.id}`, {})).body, { error: 'status is required', field: 'status' });
  t.deepEqual(world.takeEvents(), []);

  const accepted = await alice.request('PATCH', `/contacts/suggestions/${bobSuggestion.id}`, { status: 'accepted', display_name: 'Bob the Builder', emails: [{ value: 'bob@build.example', type: 'work' }] });
  t.is(accepted.status, 200);
  t.like(accepted.body.data, { id: bobSuggestion.id, status: 'accepted', member_mrn: bob.mrn });
  const contact = accepted.body.data.contact;
  t.like(contact, { display_name: 'Bob the Builder', member_mrn: bob.mrn, emails: [{ value: 'bob@build.example', type: 'work' }], source: 'suggestion', creator_id: alice.id });
  t.is(accepted.body.data.contact_id, contact.id);
  t.deepEqual(accepted.body.links, { self: `/contacts/suggestions/${bobSuggestion.id}`, contact: `/contacts/${contact.id}` });
  t.deepEqual(world.takeEvents(), [
    { action: 'core.contacts.contact.created', payload: { contact_id: contact.id, contact_mrn: contact.mrn, display_name: 'Bob the Builder', primary_email: 'bob@build.example', member_mrn: bob.mrn, source: 'suggestion', created_by: alice.id } },
  ]);
  t.deepEqual((await alice.request('PATCH', `/contacts/suggestions/${bobSuggestion.id}`, { status: 'dismissed' })).body, { error: 'Cannot dismiss a suggestion in state accepted: dismiss moves from pending to dismissed' });
  // Bob is a contact now: Carol's suggestion of him is settled with that contact.
  t.deepEqual((await list(carol)).data.map((row: any) => row.member_mrn), [alice.mrn]);
  t.deepEqual((await list(carol, '?status=accepted')).data.map((row: any) => [row.member_mrn, row.contact_id]), [[bob.mrn, contact.id]]);

  // Dismissing: DELETE (or PATCH dismissed); it stays dismissed while later interactions count.
  const carolSuggestion = (await list(alice)).data[0];
  t.deepEqual((await alice.request('DELETE', `/contacts/suggestions/${carolSuggestion.id}`)).body.data.status, 'dismissed');
  t.deepEqual((await alice.request('DELETE', `/contacts/suggestions/${carolSuggestion.id}`)).body, { error: 'Cannot dismiss a suggestion in state dismissed: dismiss moves from pending to dismissed' });
  await world.deliver('core.chat.participant.added', { chat_id: 'chat-2', member_mrn: carol.mrn, added_by_mrn: alice.mrn });
  t.deepEqual((await list(alice)).data, []);
  t.deepEqual((await list(alice, '?status=dismissed')).data.map((row: any) => [row.member_mrn, row.interactions, row.status]), [[carol.mrn, 2, 'dismissed']]);

  // Accepting needs contacts.contacts.create besides the route's key; dismissing does not.
  const reviewer = await world.member(['contacts.suggestions.review']);
  await world.deliver('core.chat.participant.added', { chat_id: 'chat-3', member_mrn: reviewer.mrn, added_by_mrn: carol.mrn });
  const own = (await list(reviewer)).data[0];
  t.deepEqual((await reviewer.request('PATCH', `/contacts/suggestions/${own.id}`, { status: 'accepted', display_name: 'Carol' })).body, { error: 'Missing permission: contacts.contacts.create' });
  t.is((await reviewer.request('PATCH', `/contacts/suggestions/${own.id}`, { status: 'dismissed' })).body.data.status, 'dismissed');

  // A member who leaves: their own suggestions go, and pending suggestions of them to others.
  t.deepEqual((await list(carol)).data.map((row: any) => row.member_mrn).sort(), [alice.mrn, reviewer.mrn].sort());
  await world.deliver('core.account.member.removed', { member_id: reviewer.id, removed_by: world.owner.id });
  t.deepEqual((await list(carol)).data.map((row: any) => row.member_mrn), [alice.mrn]);
  const left = await world.platform.query<{ n: number }>('SELECT count(*)::int AS n FROM app_contacts.suggestions WHERE workspace_id = :ws AND owner_id = :id', { ws: world.workspace.id, id: reviewer.id });
  t.deepEqual(left, [{ n: 0 }]);
  await world.deliver('core.account.member.removed', { member_id: reviewer.id, removed_by: world.owner.id });
});

test.serial('with suggestions turned off in the settings, interactions are not recorded', async (t) => {
  t.is((await world.owner.request('PUT', '/apps/contacts/settings', { suggestions_enabled: false, max_import_contacts: 1000 })).status, 200);
  const [dan, eve] = [await world.member(['contacts.suggestions.review']), await world.workspace.member({ permissions: ['contacts.contacts.read'] })];
  await world.deliver('core.chat.chat.created', { chat_id: 'chat-off', creator_mrn: dan.mrn, participant_mrns: [dan.mrn, eve.mrn] });
  t.deepEqual((await dan.request('GET', '/contacts/suggestions')).body.data, []);
  t.is((await world.owner.request('PUT', '/apps/contacts/settings', { suggestions_enabled: true, max_import_contacts: 1000 })).status, 200);
});

test.serial('mail suggestions: the senders a member receives from and the people they write to, with the name the message carries; known, automated, colleague and crowded addresses are not suggested', async (t) => {
  const keys = ['contacts.suggestions.review', 'contacts.contacts.create', 'contacts.contacts.read'];
  const [alice, bob] = [await world.member(keys), await world.workspace.member({ permissions: keys })];
  const aliceBox = '00000000-0000-4000-8000-00000000a001';
  const bobBox = '00000000-0000-4000-8000-00000000b001';
  await world.deliver('core.mail.mailbox.created', { mailbox_id: aliceBox, address: 'Alice@Acme.test', member_id: alice.id, created_by: world.owner.id });
  await world.deliver('core.mail.mailbox.created', { mailbox_id: bobBox, address: 'bob@acme.test', member_id: bob.id, created_by: world.owner.id });
  ok(await world.owner.request('POST', '/contacts', { display_name: 'Known Partner', emails: [{ value: 'Known@Partner.example' }] }));
  world.takeEvents();
  const received = (from_address: string, extra: Record<string, unknown> = {}) => ({ message_id: `m-${Math.random()}`, account_id: aliceBox, from_address, to_addresses: ['alice@acme.test'], cc_addresses: [], subject: 'Hello', ...extra });
  const list = async (member: typeof alice, query = '') => (await member.request('GET', `/contacts/suggestions${query}`)).body.data.map((row: any) => [row.email, row.name, row.member_mrn, row.sources, row.interactions, row.status]);

  await world.deliver('core.mail.message.received', received('Grace@Navy.example', { from_name: 'Grace Hopper' }));
  for (const from of ['no-reply@service.example', 'known@partner.example', 'bob@acme.test', 'mailer-daemon@acme.test', 'not an address']) await world.deliver('core.mail.message.received', received(from, { from_name: 'Someone' }));
  await world.deliver('core.mail.message.received', received('group-sender@else.example', { account_id: undefined, group_id: '00000000-0000-4000-8000-00000000c001' }));
  await world.deliver('core.mail.message.received', received('stranger@else.example', { account_id: '00000000-0000-4000-8000-00000000d001' }));
  t.deepEqual(await list(alice), [['grace@navy.example', 'Grace Hopper', null, ['mail'], 1, 'pending']]);
  t.deepEqual(await list(bob), []);

  // What Alice sends: every recipient (to, cc, bcc) not known yet; the redelivery of one event counts nothing twice.
  const sent = { message_id: 'sent-1', account_id: aliceBox, from_address: 'alice@acme.test', to_addresses: ['grace@navy.example', 'Linus@Kernel.example'], cc_addresses: ['known@partner.example'], bcc_addresses: ['ada@engine.example'], subject: 'Plans', sent_by: alice.id };
  const request = world.platform.runtime.events.deliveryRequest({ subscriber: 'contacts', handler: '/events/core-mail-message-sent', workspaceId: world.workspace.id, action: 'core.mail.message.sent', payload: sent });
  for (const attempt of ['1', '2']) {
    const reply = await world.platform.runtime.server.inject({ method: 'POST', url: request.path, headers: { ...request.headers, 'x-broker-delivery-attempt': attempt }, payload: request.body });
    t.deepEqual([reply.statusCode, JSON.parse(reply.payload)], [200, { received: true }]);
  }
  const afterSent = await list(alice);
  t.deepEqual(afterSent[0], ['grace@navy.example', 'Grace Hopper', null, ['mail'], 2, 'pending']);
  // Equal interactions at the same instant: the order between them is the ids'.
  t.deepEqual(afterSent.slice(1).sort(), [
    ['ada@engine.example', null, null, ['mail'], 1, 'pending'],
    ['linus@kernel.example', null, null, ['mail'], 1, 'pending'],
  ]);
  // A message to a crowd (more than 10 people) suggests no one.
  const crowd = Array.from({ length: 11 }, (_, index) => `person${index}@crowd.example`);
  await world.deliver('core.mail.message.sent', { ...sent, message_id: 'sent-crowd', to_addresses: crowd, cc_addresses: [], bcc_addresses: [] });
  t.is((await list(alice)).length, 3);
  t.deepEqual(world.takeEvents(), [], 'recording mail interactions emits nothing');

  // A dismissed suggestion stays dismissed while later mail counts; the name a later message carries fills a missing one.
  const linus = (await alice.request('GET', '/contacts/suggestions')).body.data.find((row: any) => row.email === 'linus@kernel.example');
  t.is((await alice.request('DELETE', `/contacts/suggestions/${linus.id}`)).status, 200);
  await world.deliver('core.mail.message.received', received('linus@kernel.example', { from_name: 'Linus Torvalds' }));
  t.deepEqual(await list(alice, '?status=dismissed'), [['linus@kernel.example', 'Linus Torvalds', null, ['mail'], 2, 'dismissed']]);

  // Accepted, Grace is a contact with the suggestion's name and address; her later mail suggests nothing.
  const grace = (await alice.request('GET', '/contacts/suggestions')).body.data.find((row: any) => row.email === 'grace@navy.example');
  const accepted = ok(await alice.request('PATCH', `/contacts/suggestions/${grace.id}`, { status: 'accepted' }));
  t.like(accepted.contact, { display_name: 'Grace Hopper', emails: [{ value: 'grace@navy.example', type: 'other' }], source: 'suggestion' });
  await world.deliver('core.mail.message.received', received('grace@navy.example', { from_name: 'Grace' }));
  t.deepEqual(await list(alice, '?status=accepted'), [['grace@navy.example', 'Grace Hopper', null, ['mail'], 2, 'accepted']]);
  t.deepEqual((await list(alice)).map((row: any) => row[0]), ['ada@engine.example']);

  // Bob's mail reaches Bob's suggestions; a mailbox assigned to nobody, or deleted, suggests to no one.
  await world.deliver('core.mail.message.received', { ...received('eve@else.example'), account_id: bobBox });
  t.deepEqual(await list(bob), [['eve@else.example', null, null, ['mail'], 1, 'pending']]);
  await world.deliver('core.mail.mailbox.assigned', { mailbox_id: bobBox, address: 'bob@acme.test', assigned_by: world.owner.id });
  await world.deliver('core.mail.message.received', { ...received('frank@else.example'), account_id: bobBox });
  await world.deliver('core.mail.mailbox.deleted', { mailbox_id: aliceBox, address: 'alice@acme.test', deleted_by: world.owner.id });
  await world.deliver('core.mail.message.received', received('heidi@else.example'));
  t.deepEqual((await list(bob)).map((row: any) => row[0]), ['eve@else.example']);
  t.deepEqual((await list(alice)).map((row: any) => row[0]), ['ada@engine.example']);
  t.deepEqual(await world.platform.query('SELECT mailbox_id, address, member_id FROM app_contacts.mailbox_copies WHERE workspace_id = :ws', { ws: world.workspace.id }), [{ mailbox_id: bobBox, address: 'bob@acme.test', member_id: null }]);
});
