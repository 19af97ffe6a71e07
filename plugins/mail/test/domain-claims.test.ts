/**
 * Two workspaces, one domain (issue 38, item 1): a domain receives mail only in the workspace that
 * proved control of it through its own token in DNS, over real SMTP and a real DNS server.
 */
import anyTest, { type TestFn } from 'ava';
import nodemailer from 'nodemailer';
import { prepareWorld, type TestMember } from '@wpk/testing';
import { mailWorld, type World } from './helpers/world.js';

interface Context extends World {
  globex: TestMember;
}

const test = anyTest as TestFn<Context>;

type Records = Array<{ purpose: string; type: string; name: string; value: string; status: string; found: string[] }>;
type Domain = { id: string; verified: boolean; dns_records: Records };

test.before(async (t) => {
  const world = await mailWorld('acme');
  t.context = await prepareWorld(world, async () => {
    const globex = await world.platform.workspace('globex');
    await globex.install('mail');
    return { ...world, globex: globex.owner };
  });
});
test.after.always(async (t) => {
  await t.context?.close();
});

function smtp(port: number, auth?: { user: string; pass: string }) {
  return nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ...(auth ? { auth } : {}) });
}

async function inbox(owner: TestMember, mailboxId: string): Promise<string[]> {
  const listed = await owner.get(`/mail/accounts/${mailboxId}/messages`);
  return listed.body.data.map((message: { subject: string }) => message.subject);
}

async function verify(owner: TestMember, domainId: string) {
  return owner.post(`/mail/domains/${domainId}/verification`, {});
}

test.serial('an unverified domain receives nothing for anyone; only the workspace whose token is in DNS claims it, and a newcomer cannot take or disturb the claim', async (t) => {
  const { owner: acme, globex, dns, port } = t.context;

  // The attack of issue 38: acme adds victim.test with a catch-all first; globex adds it and ceo@.
  const acmeDomain: Domain = (await acme.post('/mail/domains', { name: 'victim.test' })).body.data;
  const acmeCatchAll = await t.context.mailbox(acmeDomain.id, 'everything');
  t.is((await acme.patch(`/mail/domains/${acmeDomain.id}`, { catch_all_mailbox_id: acmeCatchAll.id })).status, 200);
  const globexDomain: Domain = (await globex.post('/mail/domains', { name: 'victim.test' })).body.data;
  const ceo = (await globex.post('/mail/mailboxes', { domain_id: globexDomain.id, local_part: 'ceo', member_id: globex.id })).body.data;

  const refused = await t.throwsAsync(smtp(port).sendMail({ from: 'partner@outside.test', to: 'ceo@victim.test', subject: 'Wire the money', text: 'Today.' }));
  t.regex(refused?.message ?? 'accepted', /550 No mailbox here by the name ceo@victim\.test/);
  t.deepEqual(await inbox(acme, acmeCatchAll.id), [], 'the first to add the domain gets none of its mail');
  t.deepEqual(await inbox(globex, ceo.id), []);
  t.not(acmeDomain.dns_records[0]!.value, globexDomain.dns_records[0]!.value, 'each workspace has its own token');

  // Submission and sending as an unverified domain are refused too.
  const key = (await globex.post(`/mail/mailboxes/${ceo.id}/outbox-keys`, { name: 'Phone' })).body.data;
  const signIn = await t.throwsAsync(smtp(port, { user: 'ceo@victim.test', pass: key.secret }).sendMail({ from: 'ceo@victim.test', to: 'someone@outside.test', subject: 'x', text: 'x' }));
  t.regex(signIn!.message, /535 Invalid username or password/);
  const send = await globex.post(`/mail/accounts/${ceo.id}/messages`, { to: [{ address: 'someone@outside.test' }], subject: 'x', text: 'x' });
  t.deepEqual([send.status, send.body], [409, { error: 'victim.test is not verified in this workspace: mail from ceo@victim.test cannot be sent until it is' }]);

  // The mail records alone (which the domain's owner publishes for whoever hosts it) prove nothing.
  dns.publish(acmeDomain.dns_records.slice(1));
  const squat = await verify(acme, acmeDomain.id);
  t.is(squat.status, 200);
  t.false(squat.body.data.verified);
  t.deepEqual(squat.body.data.dns_records.map((record: { status: string }) => record.status), ['missing', 'ok', 'ok', 'ok', 'ok']);

  // globex controls victim.test's DNS: its token (and its DKIM key) are published, it verifies and receives.
  dns.publish([globexDomain.dns_records[0]!, globexDomain.dns_records[3]!]);
  const proven = await verify(globex, globexDomain.id);
  t.is(proven.status, 200);
  t.true(proven.body.data.verified);
  await smtp(port).sendMail({ from: 'partner@outside.test', to: 'ceo@victim.test', subject: 'Hello CEO', text: 'Hi.' });
  t.deepEqual(await inbox(globex, ceo.id), ['Hello CEO']);
  t.deepEqual(await inbox(acme, acmeCatchAll.id), []);
  const unknown = await t.throwsAsync(smtp(port).sendMail({ from: 'partner@outside.test', to: 'nobody@victim.test', subject: 'x', text: 'x' }));
  t.regex(unknown!.message, /550 No mailbox here by the name nobody@victim\.test/, "acme's catch-all never sees it");

  // Even with acme's token in DNS too, acme cannot verify while globex holds the claim.
  dns.publish([acmeDomain.dns_records[0]!]);
  const newcomer = await verify(acme, acmeDomain.id);
  t.deepEqual([newcomer.status, newcomer.body], [409, { error: 'victim.test is verified by another workspace: it cannot be verified here while that workspace holds it' }]);
  t.false((await acme.get(`/mail/domains/${acmeDomain.id}`)).body.data.verified);
  await smtp(port).sendMail({ from: 'partner@outside.test', to: 'ceo@victim.test', subject: 'Still yours', text: 'Hi.' });
  t.deepEqual(await inbox(globex, ceo.id), ['Still yours', 'Hello CEO']);

  // A re-verification that gets no answer from DNS changes nothing.
  dns.failing.add('_wpk-verify.victim.test');
  const broken = await verify(globex, globexDomain.id);
  t.true(broken.body.data.verified);
  t.is(broken.body.data.dns_records[0].status, 'unanswered');
  dns.failing.clear();
  await smtp(port).sendMail({ from: 'partner@outside.test', to: 'ceo@victim.test', subject: 'After the outage', text: 'Hi.' });
  t.deepEqual(await inbox(globex, ceo.id), ['After the outage', 'Still yours', 'Hello CEO']);
  t.deepEqual(await inbox(acme, acmeCatchAll.id), []);
});

test.serial("a claim ends only when its own ownership record is gone; the domain then receives nothing until a workspace proves control again, never handed over", async (t) => {
  const { owner: acme, globex, dns, port, platform } = t.context;
  const globexDomain: Domain = (await globex.get('/mail/domains')).body.data.find((domain: { name: string }) => domain.name === 'victim.test');
  const acmeDomain: Domain = (await acme.get('/mail/domains')).body.data.find((domain: { name: string }) => domain.name === 'victim.test');
  const acmeCatchAll = (await acme.get(`/mail/mailboxes?domain_id=${acmeDomain.id}`)).body.data[0];

  // The domain's owner takes globex's token out (acme's, published earlier, stays).
  dns.unpublishTxt('_wpk-verify.victim.test');
  dns.publish([acmeDomain.dns_records[0]!]);
  const lapsed = await verify(globex, globexDomain.id);
  t.false(lapsed.body.data.verified);
  t.is(lapsed.body.data.dns_records[0].status, 'missing');
  t.deepEqual(await platform.query('SELECT workspace_id FROM platform.name_claims WHERE name = :name', { name: 'victim.test' }), []);
  const nobody = await t.throwsAsync(smtp(port).sendMail({ from: 'partner@outside.test', to: 'ceo@victim.test', subject: 'x', text: 'x' }));
  t.regex(nobody!.message, /550/, 'the lapsed claim goes to nobody, not to the other workspace that added the domain');
  t.deepEqual(await inbox(acme, acmeCatchAll.id), []);

  // acme now proves control with its own token, and receives.
  const proven = await verify(acme, acmeDomain.id);
  t.true(proven.body.data.verified);
  await smtp(port).sendMail({ from: 'partner@outside.test', to: 'ceo@victim.test', subject: 'For the new owner', text: 'Hi.' });
  t.deepEqual(await inbox(acme, acmeCatchAll.id), ['For the new owner']);
  t.is((await verify(globex, globexDomain.id)).status, 200, "globex's token is gone: it stays unverified");
  t.false((await globex.get(`/mail/domains/${globexDomain.id}`)).body.data.verified);

  // Deleting the domain gives the claim up: nobody receives until someone verifies.
  t.is((await acme.delete(`/mail/domains/${acmeDomain.id}`)).status, 200);
  t.deepEqual(await platform.query('SELECT workspace_id FROM platform.name_claims WHERE name = :name', { name: 'victim.test' }), []);
  const gone = await t.throwsAsync(smtp(port).sendMail({ from: 'partner@outside.test', to: 'ceo@victim.test', subject: 'x', text: 'x' }));
  t.regex(gone!.message, /550/);
});
