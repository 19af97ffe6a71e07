import anyTest, { type TestFn } from 'ava';
import { mailWorld, type World } from './helpers/world.js';

const test = anyTest as TestFn<World>;

test.before(async (t) => {
  t.context = await mailWorld('hosting');
});
test.after.always(async (t) => {
  await t.context?.close();
});

type Records = Array<{ purpose: string; type: string; name: string; value: string; status: string; found: string[] }>;

test.serial('adding a domain generates a DKIM key pair, keeps the private key sealed and lists the five records to publish (ownership first)', async (t) => {
  const { owner, platform } = t.context;
  t.context.takeEvents();
  const response = await owner.post('/mail/domains', { name: ' Example.ORG ' });
  t.is(response.status, 200);
  const domain = response.body.data;
  t.is(domain.name, 'example.org');
  t.false(domain.verified);
  t.is(domain.catch_all_mailbox_id, null);
  t.regex(domain.dkim_selector, /^wpk[0-9a-f]{8}$/);
  const records = domain.dns_records as Records;
  t.deepEqual(
    records.map((record) => [record.purpose, record.type, record.name, record.status]),
    [
      ['ownership', 'TXT', '_wpk-verify.example.org', 'unchecked'],
      ['mx', 'MX', 'example.org', 'unchecked'],
      ['spf', 'TXT', 'example.org', 'unchecked'],
      ['dkim', 'TXT', `${domain.dkim_selector}._domainkey.example.org`, 'unchecked'],
      ['dmarc', 'TXT', '_dmarc.example.org', 'unchecked'],
    ],
  );
  t.regex(records[0]!.value, /^wpk-verification=[0-9a-f]{32}$/);
  t.is(records[1]!.value, '10 mx.mail.test.');
  t.is(records[2]!.value, 'v=spf1 mx -all');
  t.regex(records[3]!.value, /^v=DKIM1; k=rsa; p=MIIBIjAN[A-Za-z0-9+/=]+$/);
  t.is(records[4]!.value, 'v=DMARC1; p=none; rua=mailto:postmaster@example.org');
  t.false(JSON.stringify(response.body).includes('PRIVATE'));
  const [stored] = await platform.query<{ dkim_private_key: string }>('SELECT dkim_private_key FROM app_mail.domains WHERE id = :id', { id: domain.id });
  t.regex(stored!.dkim_private_key, /^v1\./);
  t.false(stored!.dkim_private_key.includes('PRIVATE KEY'));
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.domain.added', payload: { domain_id: domain.id, name: 'example.org', added_by: owner.id } }]);

  const again = await owner.post('/mail/domains', { name: 'example.org' });
  t.deepEqual([again.status, again.body], [409, { error: 'Domain example.org is already added' }]);
  const bad = await owner.post('/mail/domains', { name: 'not a domain' });
  t.deepEqual([bad.status, bad.body], [400, { error: 'name must be a domain name such as example.com' }]);
  t.deepEqual(t.context.takeEvents(), []);
});

test.serial('verification looks each record up through the resolver; the domain is verified once all five match, with one event', async (t) => {
  const { owner, dns } = t.context;
  const domain = (await owner.post('/mail/domains', { name: 'verify.test' })).body.data;
  t.context.takeEvents();
  const records = domain.dns_records as Records;

  const none = (await owner.post(`/mail/domains/${domain.id}/verification`, {})).body.data;
  t.false(none.verified);
  t.deepEqual((none.dns_records as Records).map((record) => record.status), ['missing', 'missing', 'missing', 'missing', 'missing']);

  dns.publish([records[1]!, records[2]!]);
  dns.publish([{ ...records[3]!, value: 'v=DKIM1; k=rsa; p=AAAA' }]);
  const partly = (await owner.post(`/mail/domains/${domain.id}/verification`, {})).body.data;
  t.deepEqual((partly.dns_records as Records).map((record) => record.status), ['missing', 'ok', 'ok', 'missing', 'missing']);
  t.deepEqual((partly.dns_records as Records)[3]!.found, ['v=DKIM1; k=rsa; p=AAAA']);
  t.false(partly.verified);
  t.deepEqual(t.context.takeEvents(), []);

  dns.publish([records[3]!, records[4]!]);
  const unproven = (await owner.post(`/mail/domains/${domain.id}/verification`, {})).body.data;
  t.deepEqual((unproven.dns_records as Records).map((record) => record.status), ['missing', 'ok', 'ok', 'ok', 'ok']);
  t.false(unproven.verified, 'the mail records alone prove no control of the domain');

  dns.publish([records[0]!]);
  const verified = (await owner.post(`/mail/domains/${domain.id}/verification`, {})).body.data;
  t.true(verified.verified);
  t.deepEqual((verified.dns_records as Records).map((record) => record.status), ['ok', 'ok', 'ok', 'ok', 'ok']);
  t.deepEqual((verified.dns_records as Records)[0]!.found, [records[0]!.value]);
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.domain.verified', payload: { domain_id: domain.id, name: 'verify.test' } }]);
  await owner.post(`/mail/domains/${domain.id}/verification`, {});
  t.deepEqual(t.context.takeEvents(), [], 'a second verification emits nothing');

  const read = await owner.get(`/mail/domains/${domain.id}`);
  t.is(read.body.data.verified_at, verified.verified_at);
  const unknown = await owner.post('/mail/domains/00000000-0000-4000-8000-000000000000/verification', {});
  t.deepEqual([unknown.status, unknown.body], [404, { error: 'Domain 00000000-0000-4000-8000-000000000000 not found' }]);
});

test.serial('mailboxes: created on a domain, one address per workspace, assigned and unassigned with PATCH', async (t) => {
  const { owner } = t.context;
  const domainId = (await owner.post('/mail/domains', { name: 'boxes.test' })).body.data.id;
  const alice = await t.context.member(['mail.messages.read']);
  t.context.takeEvents();
  const created = await owner.post('/mail/mailboxes', { domain_id: domainId, local_part: 'Sales', display_name: 'Sales team' });
  t.is(created.status, 200);
  const mailbox = created.body.data;
  t.like(mailbox, { address: 'sales@boxes.test', local_part: 'sales', display_name: 'Sales team', member_id: null, domain_id: domainId });
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.mailbox.created', payload: { mailbox_id: mailbox.id, address: 'sales@boxes.test', created_by: owner.id } }]);

  const clash = await owner.post('/mail/mailboxes', { domain_id: domainId, local_part: 'sales' });
  t.deepEqual([clash.status, clash.body], [409, { error: 'sales@boxes.test is already a mailbox or a group' }]);
  const badPart = await owner.post('/mail/mailboxes', { domain_id: domainId, local_part: 'a..b' });
  t.is(badPart.status, 400);
  const badDomain = await owner.post('/mail/mailboxes', { domain_id: '00000000-0000-4000-8000-000000000000', local_part: 'x' });
  t.deepEqual([badDomain.status, badDomain.body], [400, { error: 'domain_id 00000000-0000-4000-8000-000000000000 is not a domain of this workspace' }]);

  const assigned = await owner.patch(`/mail/mailboxes/${mailbox.id}`, { member_id: alice.id });
  t.is(assigned.body.data.member_id, alice.id);
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.mailbox.assigned', payload: { mailbox_id: mailbox.id, address: 'sales@boxes.test', member_id: alice.id, assigned_by: owner.id } }]);
  const accounts = await alice.get('/mail/accounts');
  t.is(accounts.status, 403, 'listing accounts needs mail.accounts.read');
  const again = await owner.patch(`/mail/mailboxes/${mailbox.id}`, { member_id: alice.id });
  t.is(again.status, 200);
  t.deepEqual(t.context.takeEvents(), [], 'assigning to the same member changes nothing');

  t.is((await owner.delete(`/members/${alice.id}`)).status, 200);
  await t.context.deliver('core.account.member.removed', { member_id: alice.id, removed_by: owner.id });
  t.is((await owner.get(`/mail/mailboxes/${mailbox.id}`)).body.data.member_id, null);
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.mailbox.assigned', payload: { mailbox_id: mailbox.id, address: 'sales@boxes.test', assigned_by: owner.id } }]);
  const gone = await owner.patch(`/mail/mailboxes/${mailbox.id}`, { member_id: alice.id });
  t.deepEqual([gone.status, gone.body], [400, { error: `member_id ${alice.id} is no longer a member of this workspace` }]);
  // A removed member's mailboxes stay findable by the filter; a stranger is a 400 naming it.
  t.is((await owner.get(`/mail/mailboxes?member_id=${alice.id}`)).status, 200);
  const strangerFilter = await owner.get('/mail/mailboxes?member_id=00000000-0000-4000-8000-000000000000');
  t.deepEqual([strangerFilter.status, strangerFilter.body], [400, { error: 'query parameter member_id 00000000-0000-4000-8000-000000000000 is not a member of this workspace' }]);

  const list = await owner.get(`/mail/mailboxes?domain_id=${domainId}`);
  t.deepEqual(list.body.data.map((row: { address: string }) => row.address), ['sales@boxes.test']);
  t.deepEqual(list.body.pagination, { page: 1, per_page: 25, total: 1, pages: 1 });
});

test.serial('catch-all: PATCH names a mailbox of the same domain, or null', async (t) => {
  const { owner } = t.context;
  const domainId = (await owner.post('/mail/domains', { name: 'catch.test' })).body.data.id;
  const otherId = (await owner.post('/mail/domains', { name: 'other-catch.test' })).body.data.id;
  const inbox = await t.context.mailbox(domainId, 'inbox');
  const foreign = await t.context.mailbox(otherId, 'inbox');
  t.context.takeEvents();
  const wrong = await owner.patch(`/mail/domains/${domainId}`, { catch_all_mailbox_id: foreign.id });
  t.deepEqual([wrong.status, wrong.body], [400, { error: 'catch_all_mailbox_id must be a mailbox of catch.test' }]);
  const set = await owner.patch(`/mail/domains/${domainId}`, { catch_all_mailbox_id: inbox.id });
  t.is(set.body.data.catch_all_mailbox_id, inbox.id);
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.domain.updated', payload: { domain_id: domainId, name: 'catch.test', catch_all_mailbox_id: inbox.id, updated_by: owner.id } }]);
  const missing = await owner.patch(`/mail/domains/${domainId}`, {});
  t.is(missing.status, 400);
  const cleared = await owner.patch(`/mail/domains/${domainId}`, { catch_all_mailbox_id: null });
  t.is(cleared.body.data.catch_all_mailbox_id, null);

  await owner.patch(`/mail/domains/${domainId}`, { catch_all_mailbox_id: inbox.id });
  await owner.delete(`/mail/mailboxes/${inbox.id}`);
  t.is((await owner.get(`/mail/domains/${domainId}`)).body.data.catch_all_mailbox_id, null, 'deleting the catch-all mailbox clears it');
});

test.serial('deleting a domain takes its mailboxes and groups along', async (t) => {
  const { owner, platform } = t.context;
  const domainId = (await owner.post('/mail/domains', { name: 'gone.test' })).body.data.id;
  const box = await t.context.mailbox(domainId, 'a');
  const group = (await owner.post('/mail/groups', { domain_id: domainId, local_part: 'team', name: 'Team' })).body.data;
  t.context.takeEvents();
  const response = await owner.delete(`/mail/domains/${domainId}`);
  t.deepEqual(response.body.data, { id: domainId, deleted: true });
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.domain.deleted', payload: { domain_id: domainId, name: 'gone.test', deleted_by: owner.id } }]);
  t.is((await owner.get(`/mail/mailboxes/${box.id}`)).status, 404);
  t.is((await owner.get(`/mail/groups/${group.id}`)).status, 404);
  const [{ count }] = (await platform.query<{ count: string }>('SELECT count(*) FROM app_mail.group_members WHERE group_id = :id', { id: group.id })) as [{ count: string }];
  t.is(Number(count), 0);
  t.is((await owner.delete(`/mail/domains/${domainId}`)).status, 404);
});

test.serial('groups: the creator owns it; members join at a tier, change tier with PATCH; the last owner stays', async (t) => {
  const { owner } = t.context;
  const domainId = (await owner.post('/mail/domains', { name: 'groups.test' })).body.data.id;
  const bob = await t.context.member(['mail.groups.read']);
  t.context.takeEvents();
  const group = (await owner.post('/mail/groups', { domain_id: domainId, local_part: 'team', name: 'Team', who_can_post: 'members' })).body.data;
  t.like(group, { address: 'team@groups.test', name: 'Team', who_can_post: 'members', description: '' });
  const clash = await owner.post('/mail/mailboxes', { domain_id: domainId, local_part: 'team' });
  t.deepEqual([clash.status, clash.body], [409, { error: 'team@groups.test is already a mailbox or a group' }]);

  const added = await owner.post(`/mail/groups/${group.id}/members`, { member_id: bob.id });
  t.like(added.body.data, { member_id: bob.id, tier: 'member' });
  const twice = await owner.post(`/mail/groups/${group.id}/members`, { member_id: bob.id });
  t.deepEqual([twice.status, twice.body], [409, { error: 'The member is already in the group' }]);
  const badTier = await owner.patch(`/mail/groups/${group.id}/members/${bob.id}`, { tier: 'king' });
  t.is(badTier.status, 400);
  const promoted = await owner.patch(`/mail/groups/${group.id}/members/${bob.id}`, { tier: 'manager' });
  t.is(promoted.body.data.tier, 'manager');
  const members = await bob.get(`/mail/groups/${group.id}/members`);
  t.deepEqual(members.body.data.map((row: { member_id: string; tier: string }) => [row.member_id, row.tier]), [[owner.id, 'owner'], [bob.id, 'manager']]);
  const lastOwner = await owner.patch(`/mail/groups/${group.id}/members/${owner.id}`, { tier: 'member' });
  t.deepEqual([lastOwner.status, lastOwner.body], [409, { error: 'A group keeps at least one owner' }]);
  const leave = await owner.delete(`/mail/groups/${group.id}/members/${owner.id}`);
  t.is(leave.status, 409);
  const renamed = await owner.patch(`/mail/groups/${group.id}`, { name: 'The team' });
  t.is(renamed.body.data.name, 'The team');
  const removed = await owner.delete(`/mail/groups/${group.id}/members/${bob.id}`);
  t.deepEqual(removed.body.data, { id: bob.id, deleted: true });
  t.is((await owner.delete(`/mail/groups/${group.id}/members/${bob.id}`)).status, 404);
  t.deepEqual(
    t.context.takeEvents().map((event) => event.action),
    ['core.mail.group.created', 'core.mail.group_member.added', 'core.mail.group_member.updated', 'core.mail.group.updated', 'core.mail.group_member.removed'],
  );
  const deleted = await owner.delete(`/mail/groups/${group.id}`);
  t.is(deleted.status, 200);
  t.deepEqual(t.context.takeEvents(), [{ action: 'core.mail.group.deleted', payload: { group_id: group.id, address: 'team@groups.test', deleted_by: owner.id } }]);
});

test.serial('outbox keys: the secret is shown once and kept hashed; rename and revoke with PUT; a revoked key stays revoked', async (t) => {
  const { owner, platform } = t.context;
  const domainId = (await owner.post('/mail/domains', { name: 'keys.test' })).body.data.id;
  const carol = await t.context.member(['mail.outbox_keys.manage']);
  const box = await t.context.mailbox(domainId, 'carol', carol);
  const others = await t.context.mailbox(domainId, 'others');
  t.context.takeEvents();
  const created = await carol.post(`/mail/mailboxes/${box.id}/outbox-keys`, { name: 'Phone' });
  t.is(created.status, 200);
  const key = created.body.data;
  t.regex(key.secret, /^mbk_[A-Za-z0-9_-]{32}$/);
  t.is(key.prefix, key.secret.slice(0, 12));
  t.is(key.status, 'active');
  const [row] = await platform.query<{ secret_hash: string }>('SELECT secret_hash FROM app_mail.outbox_keys WHERE id = :id', { id: key.id });
  t.regex(row!.secret_hash, /^[0-9a-f]{64}$/);
  t.false(row!.secret_hash.includes(key.secret));
  const listed = await carol.get(`/mail/mailboxes/${box.id}/outbox-keys`);
  t.is(listed.body.data.length, 1);
  t.false('secret' in listed.body.data[0]);
  const notHers = await carol.post(`/mail/mailboxes/${others.id}/outbox-keys`, { name: 'Nope' });
  t.deepEqual([notHers.status, notHers.body], [403, { error: "Only the mailbox's member or a mailbox manager can manage its outbox keys" }]);

  const renamed = await carol.put(`/mail/mailboxes/${box.id}/outbox-keys/${key.id}`, { name: 'Old phone' });
  t.like(renamed.body.data, { name: 'Old phone', status: 'active' });
  const revoked = await carol.put(`/mail/mailboxes/${box.id}/outbox-keys/${key.id}`, { revoked: true });
  t.is(revoked.body.data.status, 'revoked');
  const restore = await carol.put(`/mail/mailboxes/${box.id}/outbox-keys/${key.id}`, { revoked: false });
  t.deepEqual([restore.status, restore.body], [409, { error: 'A revoked key cannot be restored: create a new one' }]);
  const empty = await carol.put(`/mail/mailboxes/${box.id}/outbox-keys/${key.id}`, {});
  t.is(empty.status, 400);
  const wrongBox = await carol.put(`/mail/mailboxes/${others.id}/outbox-keys/${key.id}`, { name: 'x' });
  t.is(wrongBox.status, 403);
  t.deepEqual(
    t.context.takeEvents(),
    [
      { action: 'core.mail.outbox_key.created', payload: { key_id: key.id, mailbox_id: box.id, name: 'Phone', created_by: carol.id } },
      { action: 'core.mail.outbox_key.revoked', payload: { key_id: key.id, mailbox_id: box.id, revoked_by: carol.id } },
    ],
  );
  const gone = await carol.delete(`/mail/mailboxes/${box.id}/outbox-keys/${key.id}`);
  t.deepEqual(gone.body.data, { id: key.id, deleted: true });
  t.is((await carol.get(`/mail/mailboxes/${box.id}/outbox-keys`)).body.data.length, 0);
});

test.serial('mailbox owners and group members are members of this workspace now: a random id or another workspace\'s member is a 400 naming the field, with no row and no event; a newcomer is accepted at once', async (t) => {
  const { owner, platform } = t.context;
  const domainId = (await owner.post('/mail/domains', { name: 'strangers.test' })).body.data.id;
  const group = (await owner.post('/mail/groups', { domain_id: domainId, local_part: 'crew', name: 'Crew' })).body.data;
  const box = (await owner.post('/mail/mailboxes', { domain_id: domainId, local_part: 'desk' })).body.data;
  const elsewhere = (await t.context.otherWorkspace('hosting-elsewhere')).owner;
  t.context.takeEvents();
  for (const [id, who] of [['7d0c8a52-3f0e-4c55-9d1e-0b6f4c1e2a90', 'a random id'], [elsewhere.id, "another workspace's member"]]) {
    const created = await owner.post('/mail/mailboxes', { domain_id: domainId, local_part: 'nobody', member_id: id });
    t.deepEqual([created.status, created.body], [400, { error: `member_id ${id} is not a member of this workspace` }], who);
    const assigned = await owner.patch(`/mail/mailboxes/${box.id}`, { member_id: id });
    t.deepEqual([assigned.status, assigned.body], [400, { error: `member_id ${id} is not a member of this workspace` }], who);
    const joined = await owner.post(`/mail/groups/${group.id}/members`, { member_id: id });
    t.deepEqual([joined.status, joined.body], [400, { error: `member_id ${id} is not a member of this workspace` }], who);
  }
  const malformed = await owner.post(`/mail/groups/${group.id}/members`, { member_id: 'bob' });
  t.deepEqual([malformed.status, malformed.body], [400, { error: 'member_id must be the id of a member of this workspace', field: 'member_id' }]);
  t.deepEqual(await platform.query("SELECT address FROM app_mail.mailboxes WHERE address = 'nobody@strangers.test'"), []);
  t.deepEqual(await platform.query('SELECT member_id FROM app_mail.group_members WHERE group_id = :id ORDER BY member_id', { id: group.id }), [{ member_id: owner.id }]);
  t.is((await owner.get(`/mail/mailboxes/${box.id}`)).body.data.member_id, null);
  t.deepEqual(t.context.takeEvents(), [], 'a refused request emits nothing');

  const newcomer = await t.context.member(['mail.groups.read']);
  t.is((await owner.post(`/mail/groups/${group.id}/members`, { member_id: newcomer.id })).status, 200);
  t.is((await owner.patch(`/mail/mailboxes/${box.id}`, { member_id: newcomer.id })).body.data.member_id, newcomer.id);
});

test.serial('migration 0004 drops the private member directory; down re-creates it empty, up drops it again', async (t) => {
  // 0005 (attachments) comes after it: going down to 0004 takes 0005 down first, and up runs both again.
  const world = t.context;
  const present = async () => (await world.query<{ name: string | null }>('SELECT to_regclass(:table)::text AS name', { table: 'app_mail.member_directory' }))[0]!.name;
  t.is(await present(), null);
  t.deepEqual(await world.migrateAppDown('0004-drop-member-directory'), ['0005-attachments', '0004-drop-member-directory']);
  t.is(await present(), 'app_mail.member_directory');
  t.deepEqual(await world.query('SELECT member_id, removed_at FROM app_mail.member_directory'), []);
  t.deepEqual(await world.migrateAppUp(), ['0004-drop-member-directory', '0005-attachments']);
  t.is(await present(), null);
});
