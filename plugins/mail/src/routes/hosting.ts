import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import type { MailOptions } from '../options.js';
import { addDomain, deleteDomain, listDomains, presentDomain, requireDomain, setCatchAll, verifyDomain } from '../services/domains.js';
import { addGroupMember, createGroup, deleteGroup, listGroupMembers, listGroups, presentGroup, presentGroupMember, removeGroupMember, requireGroup, updateGroup, updateGroupMember } from '../services/groups.js';
import { createMailbox, createOutboxKey, deleteMailbox, deleteOutboxKey, listMailboxes, listOutboxKeys, presentKey, presentMailbox, requireMailbox, updateMailbox, updateOutboxKey } from '../services/mailboxes.js';
import { DELETED, DOMAIN, GROUP, GROUP_MEMBER, MAILBOX, NEW_OUTBOX_KEY, OUTBOX_KEY } from './answers.js';
import { shown, subResourceRoutes } from './sub-resources.js';
import { deleted, id, name, q, tier } from './schemas.js';


/** Domains, mailboxes (with outbox keys) and groups (with members). */
export function hostingRoutes(options: MailOptions) {
  const show = (domain: Parameters<typeof presentDomain>[0], settings: { dmarc_policy: string }) => presentDomain(domain, options, settings.dmarc_policy);
  return [
    route({
      method: 'GET',
      path: '/mail/domains',
      chain: ['mail.domains.read'],
      answers: { collection: DOMAIN },
      description: 'Lists the hosted domains, by name',
      validate: { query: Joi.listQuery() },
      async handler(_request, ctx) {
        const { rows, count } = await listDomains(ctx);
        return ctx.respond.collection(rows.map((row) => show(row, ctx.settings)), count);
      },
    }),
    route({
      method: 'POST',
      path: '/mail/domains',
      chain: ['mail.domains.manage'],
      answers: { single: DOMAIN },
      description: 'Adds a domain; its DKIM key pair is generated and the DNS records to publish are returned',
      validate: { payload: Joi.object({ name: Joi.string().trim().min(3).max(253).required() }) },
      async handler(request, ctx) {
        const domain = await addDomain(ctx, request.payload);
        return ctx.respond.single(show(domain, ctx.settings), { self: `/mail/domains/${domain.id}` });
      },
    }),
    route({
      method: 'GET',
      path: '/mail/domains/{domain_id}',
      chain: ['mail.domains.read'],
      answers: { single: DOMAIN },
      description: 'Reads a domain with its DNS records and their last check',
      validate: { params: Joi.idParams('domain_id') },
      async handler(request, ctx) {
        return ctx.respond.single(show(await requireDomain(ctx, request.params.domain_id), ctx.settings));
      },
    }),
    route({
      method: 'PATCH',
      path: '/mail/domains/{domain_id}',
      chain: ['mail.domains.manage'],
      answers: { single: DOMAIN },
      description: "Sets the domain's catch-all mailbox (null: unknown addresses are refused) (SetCatchAll)",
      validate: { params: Joi.idParams('domain_id'), payload: Joi.object({ catch_all_mailbox_id: id().allow(null).required() }) },
      async handler(request, ctx) {
        return ctx.respond.single(show(await setCatchAll(ctx, request.params.domain_id, request.payload.catch_all_mailbox_id), ctx.settings));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/domains/{domain_id}',
      chain: ['mail.domains.manage'],
      answers: { single: DELETED },
      description: 'Deletes a domain with its mailboxes, groups and their mail',
      validate: { params: Joi.idParams('domain_id') },
      async handler(request, ctx) {
        await deleteDomain(ctx, request.params.domain_id);
        return ctx.respond.single(deleted(request.params.domain_id));
      },
    }),
    route({
      method: 'POST',
      path: '/mail/domains/{domain_id}/verification',
      chain: ['mail.domains.manage'],
      answers: { single: DOMAIN },
      description: "Looks the domain's DNS records up now; verified (and claimed for this workspace) once the ownership record carries this workspace's token and MX, SPF, DKIM and DMARC match; 409 while another workspace holds it verified",
      validate: { params: Joi.idParams('domain_id') },
      async handler(request, ctx) {
        return ctx.respond.single(show(await verifyDomain(ctx, request.params.domain_id, options), ctx.settings));
      },
    }),

    route({
      method: 'GET',
      path: '/mail/mailboxes',
      chain: ['mail.mailboxes.read'],
      answers: { collection: MAILBOX },
      description: 'Lists mailboxes by address (domain_id, member_id and q filter)',
      validate: { query: Joi.listQuery({ domain_id: id(), member_id: Joi.memberId({ former: true }), q: q() }) },
      async handler(request, ctx) {
        const { rows, count } = await listMailboxes(ctx, request.query);
        return ctx.respond.collection(rows.map(presentMailbox), count);
      },
    }),
    route({
      method: 'POST',
      path: '/mail/mailboxes',
      chain: ['mail.mailboxes.manage'],
      answers: { single: MAILBOX },
      description: 'Creates a mailbox on a hosted domain, optionally assigned to a member',
      validate: { payload: Joi.object({ domain_id: id().required(), local_part: Joi.string().trim().min(1).max(64).required(), display_name: Joi.string().trim().max(200).allow(''), member_id: Joi.memberId().allow(null) }) },
      async handler(request, ctx) {
        const mailbox = await createMailbox(ctx, request.payload);
        return ctx.respond.single(presentMailbox(mailbox), { self: `/mail/mailboxes/${mailbox.id}` });
      },
    }),
    route({
      method: 'GET',
      path: '/mail/mailboxes/{mailbox_id}',
      chain: ['mail.mailboxes.read'],
      answers: { single: MAILBOX },
      description: 'Reads a mailbox',
      validate: { params: Joi.idParams('mailbox_id') },
      async handler(request, ctx) {
        return ctx.respond.single(presentMailbox(await requireMailbox(ctx, request.params.mailbox_id)));
      },
    }),
    route({
      method: 'PATCH',
      path: '/mail/mailboxes/{mailbox_id}',
      chain: ['mail.mailboxes.manage'],
      answers: { single: MAILBOX },
      description: 'Assigns a mailbox to a member (null: to nobody) or renames it (AssignMailbox)',
      validate: { params: Joi.idParams('mailbox_id'), payload: Joi.object({ member_id: Joi.memberId().allow(null), display_name: Joi.string().trim().max(200).allow('') }).min(1) },
      async handler(request, ctx) {
        return ctx.respond.single(presentMailbox(await updateMailbox(ctx, request.params.mailbox_id, request.payload)));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/mailboxes/{mailbox_id}',
      chain: ['mail.mailboxes.manage'],
      answers: { single: DELETED },
      description: 'Deletes a mailbox with its mail, drafts, signatures, filters, blocked senders and outbox keys',
      validate: { params: Joi.idParams('mailbox_id') },
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

    route({
      method: 'GET',
      path: '/mail/groups',
      chain: ['mail.groups.read'],
      answers: { collection: GROUP },
      description: 'Lists the groups, by address',
      validate: { query: Joi.listQuery({ domain_id: id() }) },
      async handler(request, ctx) {
        const { rows, count } = await listGroups(ctx, request.query);
        return ctx.respond.collection(rows.map(presentGroup), count);
      },
    }),
    route({
      method: 'POST',
      path: '/mail/groups',
      chain: ['mail.groups.manage'],
      answers: { single: GROUP },
      description: 'Creates a group (distribution list) on a hosted domain; its creator is its owner',
      validate: {
        payload: Joi.object({
          domain_id: id().required(),
          local_part: Joi.string().trim().min(1).max(64).required(),
          name: name(200).required(),
          description: Joi.string().max(2000).allow(''),
          who_can_post: Joi.string().valid('anyone', 'members'),
        }),
      },
      async handler(request, ctx) {
        const group = await createGroup(ctx, request.payload);
        return ctx.respond.single(presentGroup(group), { self: `/mail/groups/${group.id}` });
      },
    }),
    route({
      method: 'GET',
      path: '/mail/groups/{group_id}',
      chain: ['mail.groups.read'],
      answers: { single: GROUP },
      description: 'Reads a group',
      validate: { params: Joi.idParams('group_id') },
      async handler(request, ctx) {
        return ctx.respond.single(presentGroup(await requireGroup(ctx, request.params.group_id)), { members: `/mail/groups/${request.params.group_id}/members`, messages: `/mail/groups/${request.params.group_id}/messages` });
      },
    }),
    route({
      method: 'PATCH',
      path: '/mail/groups/{group_id}',
      chain: ['mail.groups.manage'],
      answers: { single: GROUP },
      description: 'Renames a group, changes its description or who may post',
      validate: { params: Joi.idParams('group_id'), payload: Joi.object({ name: name(200), description: Joi.string().max(2000).allow(''), who_can_post: Joi.string().valid('anyone', 'members') }).min(1) },
      async handler(request, ctx) {
        return ctx.respond.single(presentGroup(await updateGroup(ctx, request.params.group_id, request.payload)));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/groups/{group_id}',
      chain: ['mail.groups.manage'],
      answers: { single: DELETED },
      description: 'Deletes a group with its members and messages',
      validate: { params: Joi.idParams('group_id') },
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
