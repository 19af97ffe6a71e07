import { randomBytes } from 'node:crypto';
import { ConflictError, conflictOnDuplicate, InvalidError } from '@wpk/sdk';
import type { Domain, RecordCheck } from '../models/index.js';
import type { MailOptions } from '../options.js';
import { domainName } from './addresses.js';
import type { MailBaseContext, MailContext } from '../kit.js';
import { checkRecords, dkimKeyPair, dnsRecords } from './dns-records.js';
import { domainResource } from './resources.js';

function recordStatus(check: RecordCheck | undefined): 'ok' | 'missing' | 'unanswered' | 'unchecked' {
  if (!check) return 'unchecked';
  if (check.ok) return 'ok';
  return check.unanswered ? 'unanswered' : 'missing';
}

/** The kind of `ctx.claims` a verified domain holds: one workspace of the platform receives its mail. */
export const DOMAIN_CLAIM = 'domain';

/** A domain as the API shows it: the records to publish with their last check, never the private key. */
export function presentDomain(domain: Domain, options: MailOptions, dmarcPolicy: string) {
  return {
    id: domain.id,
    name: domain.name,
    verified: domain.verified_at !== null,
    verified_at: domain.verified_at,
    checked_at: domain.checked_at,
    catch_all_mailbox_id: domain.catch_all_mailbox_id,
    dkim_selector: domain.dkim_selector,
    dns_records: dnsRecords(domain, options, dmarcPolicy).map((record) => ({ ...record, status: recordStatus(domain.checks[record.purpose]), found: domain.checks[record.purpose]?.found ?? [] })),
    created_by: domain.created_by,
    created_at: domain.created_at,
    updated_at: domain.updated_at,
  };
}

/** The domain, or 404. */
export function requireDomain(ctx: MailBaseContext, id: string, lock = false): Promise<Domain> {
  return domainResource.require(ctx, id, lock ? { lock: 'update' } : {});
}

/** Lists the workspace's domains, by name. */
export async function listDomains(ctx: MailContext) {
  return ctx.db.domains.findAndCountAll({ order: [['name', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
}

/** Adds a domain with a fresh DKIM key pair (the private key sealed at rest). */
export async function addDomain(ctx: MailContext, input: { name: string }): Promise<Domain> {
  const name = domainName(input.name);
  if (await ctx.db.domains.findOne({ where: { name } })) throw new ConflictError(`Domain ${name} is already added`);
  const keys = await dkimKeyPair();
  const domain = await conflictOnDuplicate(
    ctx.db.domains.create({ name, dkim_selector: `wpk${randomBytes(4).toString('hex')}`, dkim_public_key: keys.publicKey, dkim_private_key: ctx.secrets.seal(keys.privateKey), verification_token: randomBytes(16).toString('hex'), created_by: ctx.member.id, checks: {} }),
    `Domain ${name} is already added`,
  );
  ctx.events.stage('core.mail.domain.added', { domain_id: domain.id, name, added_by: ctx.member.id });
  return domain;
}

/**
 * Looks the records up now. An unverified domain is verified, and claimed for this workspace
 * across the platform, once all five match: the ownership record carries this workspace's token
 * (control of the domain's DNS, proven), and MX, SPF, DKIM and DMARC are in place. While another
 * workspace holds the claim it cannot be verified here (409), whatever DNS says. A verified
 * domain keeps its claim through later checks, unless its ownership record is answered without
 * this workspace's token: then the claim ends and the domain receives nothing until a workspace
 * proves control again. A look-up that got no answer changes nothing.
 */
export async function verifyDomain(ctx: MailContext, id: string, options: MailOptions): Promise<Domain> {
  const domain = await requireDomain(ctx, id, true);
  const checks = await checkRecords(options.resolver, domain, options);
  const now = new Date();
  let verifiedAt = domain.verified_at;
  if (domain.verified_at) {
    if (!checks.ownership.ok && !checks.ownership.unanswered) {
      await ctx.claims.release(DOMAIN_CLAIM, domain.name);
      verifiedAt = null;
    }
  } else if (Object.values(checks).every((check) => check.ok)) {
    if (!(await ctx.claims.take(DOMAIN_CLAIM, domain.name))) throw new ConflictError(`${domain.name} is verified by another workspace: it cannot be verified here while that workspace holds it`);
    verifiedAt = now;
    ctx.events.stage('core.mail.domain.verified', { domain_id: id, name: domain.name });
  }
  await ctx.db.domains.update({ checks, checked_at: now, verified_at: verifiedAt }, { where: { id } });
  return { ...domain, checks, checked_at: now, verified_at: verifiedAt };
}

/** Sets (or clears, with null) the mailbox that gets mail for unknown addresses of the domain. */
export async function setCatchAll(ctx: MailContext, id: string, mailboxId: string | null): Promise<Domain> {
  const domain = await requireDomain(ctx, id, true);
  if (mailboxId !== null) {
    const mailbox = await ctx.db.mailboxes.findById(mailboxId);
    if (!mailbox) throw new InvalidError(`catch_all_mailbox_id ${mailboxId} is not a mailbox of this workspace`);
    if (mailbox.domain_id !== id) throw new InvalidError(`catch_all_mailbox_id must be a mailbox of ${domain.name}`);
  }
  if (domain.catch_all_mailbox_id === mailboxId) return domain;
  await ctx.db.domains.update({ catch_all_mailbox_id: mailboxId }, { where: { id } });
  ctx.events.stage('core.mail.domain.updated', { domain_id: id, name: domain.name, catch_all_mailbox_id: mailboxId, updated_by: ctx.member.id });
  return { ...domain, catch_all_mailbox_id: mailboxId, updated_at: new Date() };
}

/** Deletes a domain with its mailboxes, groups and their mail (`confirm` must repeat the name). */
export async function deleteDomain(ctx: MailContext, id: string): Promise<void> {
  const domain = await requireDomain(ctx, id, true);
  await ctx.db.domains.update({ catch_all_mailbox_id: null }, { where: { id } });
  const mailboxes = await ctx.db.mailboxes.findAll({ where: { domain_id: id } });
  const groups = await ctx.db.groups.findAll({ where: { domain_id: id } });
  for (const mailbox of mailboxes) await ctx.db.mailboxes.update({ signature_id: null }, { where: { id: mailbox.id } });
  const messages = await ctx.db.messages.findAll({ where: { account_id: mailboxes.map((mailbox) => mailbox.id) }, attributes: ['id'] });
  const groupMessages = await ctx.db.messages.findAll({ where: { group_id: groups.map((group) => group.id) }, attributes: ['id'] });
  for (const message of [...messages, ...groupMessages]) ctx.search.remove('message', message.id);
  await ctx.db.domains.destroy({ where: { id } });
  if (domain.verified_at) await ctx.claims.release(DOMAIN_CLAIM, domain.name);
  ctx.events.stage('core.mail.domain.deleted', { domain_id: id, name: domain.name, deleted_by: ctx.member.id });
}
