import { defineRoute, Joi, type JoiSchema } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { blockSender, createDraft, createFilter, createSignature, deleteDraft, deleteFilter, deleteSignature, listBlocked, listDrafts, listFilters, listSignatures, present, replaceSignature, requireDraft, saveDraft, sendDraft, unblockSender } from '../services/account-parts.js';
import { connectAccount, disconnectAccount, listAccounts, presentAccount, requireAccount, updateAccount, type ConnectionVerifier } from '../services/accounts.js';
import { deleteMessage, listAccountMessages, listGroupMessages, presentMessage, queueMessage, requireAccountMessage, requireGroupMessage, updateMessage } from '../services/messages.js';
import { ACCOUNT, BLOCKED_SENDER, DELETED, DRAFT, FILTER, MESSAGE, SIGNATURE } from './answers.js';
import { composition, deleted, filterAction, filterCondition, folder, id, idParams, listQuery, name, q } from './schemas.js';

const route = defineRoute<Models, AppTypes>;

const messageChanges = Joi.object({ seen: Joi.boolean(), flagged: Joi.boolean(), folder: folder() }).min(1);

/** One server of a connected account: host, port, how the connection is secured, and the login. */
const server = (required: boolean) => {
  const field = <T extends JoiSchema>(schema: T) => (required ? schema.required() : schema);
  return Joi.object({
    host: field(Joi.string().trim().lowercase().hostname().max(253)),
    port: field(Joi.number().integer().min(1).max(65535)),
    security: field(Joi.string().valid('tls', 'starttls', 'none')),
    username: Joi.string().trim().min(1).max(320),
    password: Joi.string().min(1).max(1000),
  });
};

/** The caller's accounts and their messages, signatures, filters, blocked senders; group messages; drafts. */
export function mailRoutes(verify: ConnectionVerifier) {
  return [
    route({
      method: 'GET',
      path: '/mail/accounts',
      answers: { collection: ACCOUNT },
      description: "Lists the caller's accounts (the hosted mailboxes assigned to them and the external ones they connected), by address",
      validate: { query: listQuery() },
      async handler(_request, ctx) {
        const { rows, count } = await listAccounts(ctx);
        return ctx.respond.collection(rows.map(presentAccount), count);
      },
    }),
    route({
      method: 'POST',
      path: '/mail/accounts',
      answers: { single: ACCOUNT },
      description: "Connects an external mailbox (IMAP to read, SMTP to send): both servers must accept the login; the passwords are kept sealed and never shown",
      validate: {
        payload: Joi.object({
          address: Joi.string().trim().lowercase().email({ tlds: false }).max(320).required(),
          display_name: Joi.string().trim().max(200).allow(''),
          imap: server(true).keys({ username: Joi.string().trim().min(1).max(320).required(), password: Joi.string().min(1).max(1000).required() }).required(),
          smtp: server(true).required(),
        }),
      },
      async handler(request, ctx) {
        const account = await connectAccount(ctx, request.payload, verify);
        return ctx.respond.single(presentAccount(account));
      },
    }),
    route({
      method: 'PATCH',
      path: '/mail/accounts/{account_id}',
      answers: { single: ACCOUNT },
      description: "Changes an account's display name or default signature, and a connected account's servers or passwords (checked before they are kept) (UpdateAccount)",
      validate: { params: idParams('account_id'), payload: Joi.object({ display_name: Joi.string().trim().max(200).allow(''), signature_id: id().allow(null), imap: server(false).min(1), smtp: server(false).min(1) }).min(1) },
      async handler(request, ctx) {
        return ctx.respond.single(presentAccount(await updateAccount(ctx, request.params.account_id, request.payload, verify)));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/accounts/{account_id}',
      answers: { single: DELETED },
      description: "Disconnects a connected account: its copies here, drafts, signatures, filters and blocked senders go, the mail on its server stays (a hosted mailbox answers 409)",
      validate: { params: idParams('account_id') },
      async handler(request, ctx) {
        await disconnectAccount(ctx, await requireAccount(ctx, request.params.account_id, true), ctx.member.id);
        return ctx.respond.single(deleted(request.params.account_id));
      },
    }),
    route({
      method: 'GET',
      path: '/mail/accounts/{account_id}/messages',
      answers: { collection: MESSAGE },
      description: 'Lists the messages of a folder (default inbox), newest first',
      validate: { params: idParams('account_id'), query: listQuery({ folder: folder(), q: q(), seen: Joi.boolean(), flagged: Joi.boolean() }) },
      async handler(request, ctx) {
        const { rows, count } = await listAccountMessages(ctx, request.params.account_id, request.query);
        return ctx.respond.collection(rows.map(presentMessage), count);
      },
    }),
    route({
      method: 'POST',
      path: '/mail/accounts/{account_id}/messages',
      answers: { single: MESSAGE },
      description: 'Sends a message: queued in the outbox, handed to the relay DKIM-signed, then filed in sent',
      validate: { params: idParams('account_id'), payload: Joi.object({ ...composition, signature_id: id().allow(null) }) },
      async handler(request, ctx) {
        const account = await requireAccount(ctx, request.params.account_id, true);
        const { signature_id: signatureId, ...rest } = request.payload;
        const message = await queueMessage(ctx, account, rest, ctx.member.id, signatureId);
        return ctx.respond.single(presentMessage(message), { self: `/mail/accounts/${account.id}/messages/${message.id}` });
      },
    }),
    route({
      method: 'GET',
      path: '/mail/accounts/{account_id}/messages/{message_id}',
      answers: { single: MESSAGE },
      description: 'Reads a message',
      validate: { params: idParams('account_id', 'message_id') },
      async handler(request, ctx) {
        return ctx.respond.single(presentMessage(await requireAccountMessage(ctx, request.params.account_id, request.params.message_id)));
      },
    }),
    route({
      method: 'PATCH',
      path: '/mail/accounts/{account_id}/messages/{message_id}',
      answers: { single: MESSAGE },
      description: 'Marks a message read or flagged, or moves it to a folder (UpdateMessage)',
      validate: { params: idParams('account_id', 'message_id'), payload: messageChanges },
      async handler(request, ctx) {
        const message = await requireAccountMessage(ctx, request.params.account_id, request.params.message_id, true);
        return ctx.respond.single(presentMessage(await updateMessage(ctx, message, request.payload)));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/accounts/{account_id}/messages/{message_id}',
      answers: { single: DELETED },
      description: 'Deletes a message for good (a queued one is not sent)',
      validate: { params: idParams('account_id', 'message_id') },
      async handler(request, ctx) {
        await deleteMessage(ctx, await requireAccountMessage(ctx, request.params.account_id, request.params.message_id, true));
        return ctx.respond.single(deleted(request.params.message_id));
      },
    }),
    route({
      method: 'GET',
      path: '/mail/accounts/{account_id}/signatures',
      answers: { collection: SIGNATURE },
      description: "Lists an account's signatures, by name",
      validate: { params: idParams('account_id'), query: listQuery() },
      async handler(request, ctx) {
        const { rows, count } = await listSignatures(ctx, request.params.account_id);
        return ctx.respond.collection(rows.map(present.signature), count);
      },
    }),
    route({
      method: 'POST',
      path: '/mail/accounts/{account_id}/signatures',
      answers: { single: SIGNATURE },
      description: 'Creates a signature',
      validate: { params: idParams('account_id'), payload: Joi.object({ name: name().required(), text: Joi.string().max(10000).allow(''), html: Joi.string().max(50000).allow('') }) },
      async handler(request, ctx) {
        return ctx.respond.single(present.signature(await createSignature(ctx, request.params.account_id, request.payload)));
      },
    }),
    route({
      method: 'PUT',
      path: '/mail/accounts/{account_id}/signatures/{signature_id}',
      answers: { single: SIGNATURE },
      description: 'Replaces a signature (UpdateSignature)',
      validate: { params: idParams('account_id', 'signature_id'), payload: Joi.object({ name: name().required(), text: Joi.string().max(10000).allow(''), html: Joi.string().max(50000).allow('') }) },
      async handler(request, ctx) {
        return ctx.respond.single(present.signature(await replaceSignature(ctx, request.params.account_id, request.params.signature_id, request.payload)));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/accounts/{account_id}/signatures/{signature_id}',
      answers: { single: DELETED },
      description: 'Deletes a signature (an account using it as default gets none)',
      validate: { params: idParams('account_id', 'signature_id') },
      async handler(request, ctx) {
        await deleteSignature(ctx, request.params.account_id, request.params.signature_id);
        return ctx.respond.single(deleted(request.params.signature_id));
      },
    }),
    route({
      method: 'GET',
      path: '/mail/accounts/{account_id}/filters',
      answers: { collection: FILTER },
      description: "Lists an account's filters in the order they run",
      validate: { params: idParams('account_id'), query: listQuery() },
      async handler(request, ctx) {
        const { rows, count } = await listFilters(ctx, request.params.account_id);
        return ctx.respond.collection(rows.map(present.filter), count);
      },
    }),
    route({
      method: 'POST',
      path: '/mail/accounts/{account_id}/filters',
      answers: { single: FILTER },
      description: 'Creates a filter (conditions, all or any, then actions), run after the existing ones',
      validate: {
        params: idParams('account_id'),
        payload: Joi.object({ name: name().required(), match: Joi.string().valid('all', 'any'), conditions: Joi.array().items(filterCondition()).min(1).max(20).required(), actions: Joi.array().items(filterAction()).min(1).max(10).required() }),
      },
      async handler(request, ctx) {
        return ctx.respond.single(present.filter(await createFilter(ctx, request.params.account_id, request.payload)));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/accounts/{account_id}/filters/{filter_id}',
      answers: { single: DELETED },
      description: 'Deletes a filter',
      validate: { params: idParams('account_id', 'filter_id') },
      async handler(request, ctx) {
        await deleteFilter(ctx, request.params.account_id, request.params.filter_id);
        return ctx.respond.single(deleted(request.params.filter_id));
      },
    }),
    route({
      method: 'GET',
      path: '/mail/accounts/{account_id}/blocked-senders',
      answers: { collection: BLOCKED_SENDER },
      description: "Lists an account's blocked senders, by address",
      validate: { params: idParams('account_id'), query: listQuery() },
      async handler(request, ctx) {
        const { rows, count } = await listBlocked(ctx, request.params.account_id);
        return ctx.respond.collection(rows.map(present.blocked), count);
      },
    }),
    route({
      method: 'POST',
      path: '/mail/accounts/{account_id}/blocked-senders',
      answers: { single: BLOCKED_SENDER },
      description: 'Blocks an address (name@example.com) or a domain (@example.com): their mail is dropped',
      validate: { params: idParams('account_id'), payload: Joi.object({ address: Joi.string().trim().min(3).max(320).required() }) },
      async handler(request, ctx) {
        return ctx.respond.single(present.blocked(await blockSender(ctx, request.params.account_id, request.payload.address)));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/accounts/{account_id}/blocked-senders/{blocked_id}',
      answers: { single: DELETED },
      description: 'Unblocks a sender',
      validate: { params: idParams('account_id', 'blocked_id') },
      async handler(request, ctx) {
        await unblockSender(ctx, request.params.account_id, request.params.blocked_id);
        return ctx.respond.single(deleted(request.params.blocked_id));
      },
    }),

    route({
      method: 'GET',
      path: '/mail/groups/{group_id}/messages',
      answers: { collection: MESSAGE },
      description: "Lists a group's messages, newest first (its members, and group managers)",
      validate: { params: idParams('group_id'), query: listQuery({ q: q() }) },
      async handler(request, ctx) {
        const { rows, count } = await listGroupMessages(ctx, request.params.group_id, request.query);
        return ctx.respond.collection(rows.map(presentMessage), count);
      },
    }),
    route({
      method: 'GET',
      path: '/mail/groups/{group_id}/messages/{message_id}',
      answers: { single: MESSAGE },
      description: 'Reads a group message',
      validate: { params: idParams('group_id', 'message_id') },
      async handler(request, ctx) {
        return ctx.respond.single(presentMessage(await requireGroupMessage(ctx, request.params.group_id, request.params.message_id)));
      },
    }),
    route({
      method: 'PATCH',
      path: '/mail/groups/{group_id}/messages/{message_id}',
      answers: { single: MESSAGE },
      description: "Marks a group message read or flagged, for the whole group (its owners and managers) (UpdateMessage)",
      validate: { params: idParams('group_id', 'message_id'), payload: Joi.object({ seen: Joi.boolean(), flagged: Joi.boolean() }).min(1) },
      async handler(request, ctx) {
        const message = await requireGroupMessage(ctx, request.params.group_id, request.params.message_id, true);
        return ctx.respond.single(presentMessage(await updateMessage(ctx, message, request.payload)));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/groups/{group_id}/messages/{message_id}',
      answers: { single: DELETED },
      description: "Deletes a group message (its owners and managers)",
      validate: { params: idParams('group_id', 'message_id') },
      async handler(request, ctx) {
        await deleteMessage(ctx, await requireGroupMessage(ctx, request.params.group_id, request.params.message_id, true));
        return ctx.respond.single(deleted(request.params.message_id));
      },
    }),

    route({
      method: 'GET',
      path: '/mail/drafts',
      answers: { collection: DRAFT },
      description: "Lists the caller's drafts (account_id filters), last saved first",
      validate: { query: listQuery({ account_id: id() }) },
      async handler(request, ctx) {
        const { rows, count } = await listDrafts(ctx, request.query.account_id as string | undefined);
        return ctx.respond.collection(rows.map(present.draft), count);
      },
    }),
    route({
      method: 'POST',
      path: '/mail/drafts',
      answers: { single: DRAFT },
      description: 'Starts a draft in one of the caller\'s accounts',
      validate: { payload: Joi.object({ account_id: id().required(), ...composition }) },
      async handler(request, ctx) {
        const draft = await createDraft(ctx, request.payload);
        return ctx.respond.single(present.draft(draft), { self: `/mail/drafts/${draft.id}` });
      },
    }),
    route({
      method: 'GET',
      path: '/mail/drafts/{draft_id}',
      answers: { single: DRAFT },
      description: 'Reads a draft',
      validate: { params: idParams('draft_id') },
      async handler(request, ctx) {
        return ctx.respond.single(present.draft(await requireDraft(ctx, request.params.draft_id)));
      },
    }),
    route({
      method: 'PUT',
      path: '/mail/drafts/{draft_id}',
      answers: { single: DRAFT },
      description: 'Saves a draft whole: what is omitted becomes empty (SaveDraft)',
      validate: { params: idParams('draft_id'), payload: Joi.object(composition) },
      async handler(request, ctx) {
        return ctx.respond.single(present.draft(await saveDraft(ctx, request.params.draft_id, request.payload)));
      },
    }),
    route({
      method: 'DELETE',
      path: '/mail/drafts/{draft_id}',
      answers: { single: DELETED },
      description: 'Discards a draft',
      validate: { params: idParams('draft_id') },
      async handler(request, ctx) {
        await deleteDraft(ctx, request.params.draft_id);
        return ctx.respond.single(deleted(request.params.draft_id));
      },
    }),
    route({
      method: 'POST',
      path: '/mail/drafts/{draft_id}/send',
      answers: { single: MESSAGE },
      description: 'Sends a draft: it becomes a queued message of its account, and the draft goes',
      validate: { params: idParams('draft_id'), payload: Joi.object({ signature_id: id().allow(null) }).allow(null) },
      async handler(request, ctx) {
        const message = await sendDraft(ctx, request.params.draft_id, request.payload?.signature_id);
        return ctx.respond.single(presentMessage(message), { self: `/mail/accounts/${message.account_id}/messages/${message.id}` });
      },
    }),
  ];
}
