import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import type { MailOptions } from '../options.js';
import { addDomain, deleteDomain, listDomains, presentDomain, requireDomain, setCatchAll, verifyDomain } from '../services/domains.js';
import { addGroupMember, createGroup, deleteGroup, listGroupMembers, listGroups, presentGroup, presentGroupMember, removeGroupMember, requireGroup, updateGroup, updateGroupMember } from '../services/groups.js';
import { createMailbox, createOutboxKey, deleteMailbox, deleteOutboxKey, listMailboxes, listOutboxKeys, presentKey, presentMailbox, requireMailbox, updateMailbox, updateOutboxKey } from '../services/mailboxes.js';
import { DELETED, DOMAIN, GROUP, GROUP_MEMBER, MAILBOX, NEW_OUTBOX_KEY, OUTBOX_KEY } from './answers.js';
import { shown, subResourceRoutes } from './sub-resources.js';
import { deleted, id, name, q, tier } from './schemas.js';

const domains = routeFamily('/mail/domains', { record: DOMAIN });
const domain = domains.at('/{domain_id}', { params: Joi.idParams('domain_id') });
const mailboxes = routeFamily('/mail/mailboxes', { record: MAILBOX, present: presentMailbox });
const mailbox = mailboxes.at('/{mailbox_id}', { params: Joi.idParams('mailbox_id') });
const groups = routeFamily('/mail/groups', { record: GROUP, present: presentGroup });
const group = groups.at('/{group_id}', { params: Joi.idParams('group_id') });

/** Domains, mailboxes (with outbox keys) and groups (with members). */
export function hostingRoutes(options: MailOptions) {
  const show = (domain: Parameters<typeof presentDomain>[0], settings: { dmarc_policy: string }) => presentDomain(domain, options, settings.dmarc_policy);
  return [
    domains.list({
      chain: ['mail.domains.read'],
      description: 'Lists the hosted domains, by name',
      query: Joi.listQuery(),
      async handler(_request, ctx) {
        const { rows, count } = await listDomains(ctx);
        return ctx.respond.collection(rows.map((row) => show(row, ctx.settings)), count);
      },
    }),
    domains.post({
      chain: ['mail.domains.manage'],
      description: 'Adds a domain; its DKIM key pair is generated and the DNS records to publish are returned',
      payload: Joi.object({ name: Joi.string().trim().min(3).max(253).required() }),
      async handler(request, ctx) {
        const domain = await addDomain(ctx, request.payload);
        return ctx.respond.single(show(domain, ctx.settings), { self: `/mail/domains/${domain.id}` });
      },
    }),
    domain.get({
      chain: ['mail.domains.read'],
      description: 'Reads a domain with its DNS records and their last check',
      async handler(request, ctx) {
        return ctx.respond.single(show(await requireDomain(ctx, request.params.domain_id), ctx.settings));
      },
    }),
    domain.patch({
      chain: ['mail.domains.manage'],
      description: "Sets the domain's catch-all mailbox (null: unknown addresses are refused) (SetCatchAll)",
      payload: Joi.object({ catch_all_mailbox_id: id().allow(null).required() }),
      async handler(request, ctx) {
        return ctx.respond.single(show(await setCatchAll(ctx, request.params.domain_id, request.payload.catch_all_mailbox_id), ctx.settings));
      },
    }),
    domain.delete({
      chain: ['mail.domains.manage'],
      answers: { single: DELETED },
      description: 'Deletes a domain with its mailboxes, groups and their mail',
      async handler(request, ctx) {
        await deleteDomain(ctx, request.params.domain_id);
        return ctx.respond.single(deleted(request.params.domain_id));
      },
    }),
    domain.at('/verification').post({
      chain: ['mail.domains.manage'],
      description: "Looks the domain's DNS records up now; verified (and claimed for this workspace) once the ownership record carries this workspace's token and MX, SPF, DKIM and DMARC match; 409 while another workspace holds it verified",
      async handler(request, ctx) {
        return ctx.respond.single(show(await verifyDomain(ctx, request.params.domain_id, options), ctx.settings));
      },
    }),

    mailboxes.list({
      chain: ['mail.mailboxes.read'],
      description: 'Lists mailboxes by address (domain_id, member_id and q filter)',
      query: Joi.listQuery({ domain_id: id(), member_id: Joi.memberId({ former: true }), q: q() }),
      run: (request, ctx) => listMailboxes(ctx, request.query),
    }),
    mailboxes.post({
      chain: ['mail.mailboxes.manage'],
      description: 'Creates a mailbox on a hosted domain, optionally assigned to a member',
      payload: Joi.object({ domain_id: id().required(), local_part: Joi.string().trim().min(1).max(64).required(), display_name: Joi.string().trim().max(200).allow(''), member_id: Joi.memberId().allow(null) }),
      async handler(request, ctx) {
        const mailbox = await createMailbox(ctx, request.payload);
        return ctx.respond.single(presentMailbox(mailbox), { self: `/mail/mailboxes/${mailbox.id}` });
      },
    }),
    mailbox.get({
      chain: ['mail.mailboxes.read'],
      description: 'Reads a mailbox',
      run: (request, ctx) => requireMailbox(ctx, request.params.mailbox_id),
    }),
    mailbox.patch({
      chain: ['mail.mailboxes.manage'],
      description: 'Assigns a mailbox to a member (null: to nobody) or renames it (AssignMailbox)',
      payload: Joi.object({ member_id: Joi.memberId().allow(null), display_name: Joi.string().trim().max(200).allow('') }).min(1),
      run: (request, ctx) => updateMailbox(ctx, request.params.mailbox_id, request.payload),
    }),
    mailbox.delete({
      chain: ['mail.mailboxes.manage'],
      answers: { single: DELETED },
      description: 'Deletes a mailbox with its mail, drafts, signatures, filters, blocked senders and outbox keys',
      async handler(request, ctx) {
        await deleteMailbox(ctx, request.params.mailbox_id);
        return ctx.respond.single(deleted(request.params.mailbox_id));
      },
    }),
    ...subResourceRoutes({
      path: '/mail/mailboxes/{mailbox_id}/outbox-keys',
      item: 'key_id',
      record: OUTBOX_KEY,
      list: { chain: ['mail.outbox_keys.manage'], description: "Lists a mailbox's outbox keys (never their secrets), newest first", run: async (ctx, mailboxId) => shown(await listOutboxKeys(ctx, mailboxId), (key) => presentKey(key)) },
      create: {
        chain: ['mail.outbox_keys.manage'],
        description: 'Creates an SMTP submission key for the mailbox; its secret is shown this once',
        payload: Joi.object({ name: name().required() }),
        answers: NEW_OUTBOX_KEY,
        linkSelf: true,
        async run(ctx, mailboxId, input) {
          const { key, secret } = await createOutboxKey(ctx, mailboxId, input.name);
          return presentKey(key, secret);
        },
      },
      update: {
        method: 'PUT',
        chain: ['mail.outbox_keys.manage'],
        description: 'Renames an outbox key or revokes it (refused at its next submission) (UpdateOutboxKey)',
        payload: Joi.object({ name: name(), revoked: Joi.boolean() }).min(1),
        run: async (ctx, mailboxId, keyId, changes) => presentKey(await updateOutboxKey(ctx, mailboxId, keyId, changes)),
      },
      remove: { chain: ['mail.outbox_keys.manage'], description: 'Deletes an outbox key', run: deleteOutboxKey },
    }),

    groups.list({
      chain: ['mail.groups.read'],
      description: 'Lists the groups, by address',
      query: Joi.listQuery({ domain_id: id() }),
      run: (request, ctx) => listGroups(ctx, request.query),
    }),
    groups.post({
      chain: ['mail.groups.manage'],
      description: 'Creates a group (distribution list) on a hosted domain; its creator is its owner',
      payload: Joi.object({
        domain_id: id().required(),
        local_part: Joi.string().trim().min(1).max(64).required(),
        name: name(200).required(),
        description: Joi.string().max(2000).allow(''),
        who_can_post: Joi.string().valid('anyone', 'members'),
      }),
      async handler(request, ctx) {
        const group = await createGroup(ctx, request.payload);
        return ctx.respond.single(presentGroup(group), { self: `/mail/groups/${group.id}` });
      },
    }),
    group.get({
      chain: ['mail.groups.read'],
      description: 'Reads a group',
      async handler(request, ctx) {
        return ctx.respond.single(presentGroup(await requireGroup(ctx, request.params.group_id)), { members: `/mail/groups/${request.params.group_id}/members`, messages: `/mail/groups/${request.params.group_id}/messages` });
      },
    }),
    group.patch({
      chain: ['mail.groups.manage'],
      description: 'Renames a group, changes its description or who may post',
      payload: Joi.object({ name: name(200), description: Joi.string().max(2000).allow(''), who_can_post: Joi.string().valid('anyone', 'members') }).min(1),
      run: (request, ctx) => updateGroup(ctx, request.params.group_id, request.payload),
    }),
    group.delete({
      chain: ['mail.groups.manage'],
      answers: { single: DELETED },
      description: 'Deletes a group with its members and messages',
      async handler(request, ctx) {
        await deleteGroup(ctx, request.params.group_id);
        return ctx.respond.single(deleted(request.params.group_id));
      },
    }),
    ...subResourceRoutes({
      path: '/mail/groups/{group_id}/members',
      item: 'member_id',
      record: GROUP_MEMBER,
      list: { chain: ['mail.groups.read'], description: "Lists a group's members, owners first, then managers, then members", run: async (ctx, groupId) => shown(await listGroupMembers(ctx, groupId), presentGroupMember) },
      create: { chain: ['mail.groups.manage'], description: 'Adds a member to a group at a tier (default member)', payload: Joi.object({ member_id: Joi.memberId().required(), tier: tier() }), run: async (ctx, groupId, input) => presentGroupMember(await addGroupMember(ctx, groupId, input)) },
      update: {
        method: 'PATCH',
        chain: ['mail.groups.manage'],
        description: "Changes a group member's tier; the last owner cannot step down (UpdateGroupMember)",
        payload: Joi.object({ tier: tier().required() }),
        run: async (ctx, groupId, memberId, input) => presentGroupMember(await updateGroupMember(ctx, groupId, memberId, input.tier)),
      },
      remove: { chain: ['mail.groups.manage'], description: 'Removes a member from a group; the last owner cannot leave', run: removeGroupMember },
    }),
  ];
}
