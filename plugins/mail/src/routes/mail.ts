import { Joi, type JoiSchema } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { blockSender, createDraft, createFilter, createSignature, deleteDraft, deleteFilter, deleteSignature, listBlocked, listDrafts, listFilters, listSignatures, present, replaceSignature, requireDraft, saveDraft, sendDraft, unblockSender } from '../services/account-parts.js';
import { connectAccount, disconnectAccount, listAccounts, presentAccount, requireAccount, updateAccount, type ConnectionVerifier } from '../services/accounts.js';
import { deleteMessage, listAccountMessages, listGroupMessages, presentMessage, queueMessage, requireAccountMessage, requireGroupMessage, updateMessage } from '../services/messages.js';
import { ACCOUNT, BLOCKED_SENDER, DELETED, DOWNLOAD, DRAFT, FILTER, MESSAGE, SIGNATURE, UPLOAD } from './answers.js';
import { createUpload, downloadLink, resolveAttachments } from '../services/attachments.js';
import { shown, subResourceRoutes } from './sub-resources.js';
import { composition, deleted, filterAction, filterCondition, folder, id, name, q } from './schemas.js';

const messageChanges = Joi.object({ seen: Joi.boolean(), flagged: Joi.boolean(), folder: folder() }).min(1);
const signature = Joi.object({ name: name().required(), text: Joi.string().max(10000).allow(''), html: Joi.string().max(50000).allow('') });

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

const accounts = routeFamily('/mail/accounts', { record: ACCOUNT, present: presentAccount });
const account = accounts.at('/{account_id}', { params: Joi.idParams('account_id') });
const drafts = routeFamily('/mail/drafts', { record: DRAFT, present: present.draft });
const draft = drafts.at('/{draft_id}', { params: Joi.idParams('draft_id') });

/** The caller's accounts and their messages, signatures, filters, blocked senders; group messages; drafts. */
export function mailRoutes(verify: ConnectionVerifier) {
  return [
    accounts.list({
      chain: ['mail.accounts.read'],
      description: "Lists the caller's accounts (the hosted mailboxes assigned to them and the external ones they connected), by address",
      query: Joi.listQuery(),
      run: (_request, ctx) => listAccounts(ctx),
    }),
    accounts.post({
      chain: ['mail.accounts.manage'],
      description: "Connects an external mailbox (IMAP to read, SMTP to send): both servers must accept the login; the passwords are kept sealed and never shown",
      payload: Joi.object({
        address: Joi.string().trim().lowercase().email({ tlds: false }).max(320).required(),
        display_name: Joi.string().trim().max(200).allow(''),
        imap: server(true).keys({ username: Joi.string().trim().min(1).max(320).required(), password: Joi.string().min(1).max(1000).required() }).required(),
        smtp: server(true).required(),
      }),
      async handler(request, ctx) {
        const account = await connectAccount(ctx, request.payload, verify);
        return ctx.respond.single(presentAccount(account));
      },
    }),
    account.patch({
      chain: ['mail.accounts.edit'],
      description: "Changes an account's display name or default signature, and a connected account's servers or passwords (checked before they are kept) (UpdateAccount)",
      payload: Joi.object({ display_name: Joi.string().trim().max(200).allow(''), signature_id: id().allow(null), imap: server(false).min(1), smtp: server(false).min(1) }).min(1),
      run: (request, ctx) => updateAccount(ctx, request.params.account_id, request.payload, verify),
    }),
    account.delete({
      chain: ['mail.accounts.manage'],
      answers: { single: DELETED },
      description: "Disconnects a connected account: its copies here, drafts, signatures, filters and blocked senders go, the mail on its server stays (a hosted mailbox answers 409)",
      async handler(request, ctx) {
        await disconnectAccount(ctx, await requireAccount(ctx, request.params.account_id, true), ctx.member.id);
        return ctx.respond.single(deleted(request.params.account_id));
      },
    }),
    account.at('/uploads').post({
      chain: ['mail.messages.send'],
      answers: { single: UPLOAD },
      description: "A signed link (15 minutes) to upload one file into the account's files: attach it with `attachments: [{file_key}]` in a message or a draft",
      payload: Joi.object({ filename: Joi.string().trim().min(1).max(255).required(), content_type: Joi.string().max(255), size_bytes: Joi.number().integer().min(1).max(25 * 1024 * 1024) }),
      handler: async (request, ctx) => ctx.respond.single(await createUpload(ctx, request.params.account_id, request.payload)),
    }),
    account.at('/messages/{message_id}/attachments/{attachment_id}', { params: Joi.idParams('account_id', 'message_id', 'attachment_id') }).get({
      chain: ['mail.messages.read'],
      answers: { single: DOWNLOAD },
      description: 'A signed link (5 minutes) to download one file of a message',
      handler: async (request, ctx) => ctx.respond.single(await downloadLink(ctx, await requireAccountMessage(ctx, request.params.account_id, request.params.message_id), request.params.attachment_id)),
    }),
    ...subResourceRoutes({
      path: '/mail/accounts/{account_id}/messages',
      item: 'message_id',
      record: MESSAGE,
      list: {
        chain: ['mail.messages.read'],
        description: 'Lists the messages of a folder (default inbox), newest first',
        filters: { folder: folder(), q: q(), seen: Joi.boolean(), flagged: Joi.boolean() },
        run: async (ctx, accountId, query) => shown(await listAccountMessages(ctx, accountId, query), presentMessage),
      },
      create: {
        chain: ['mail.messages.send'],
        description: 'Sends a message: queued in the outbox, handed to the relay DKIM-signed, then filed in sent',
        payload: Joi.object({ ...composition, signature_id: id().allow(null) }),
        linkSelf: true,
        async run(ctx, accountId, { signature_id: signatureId, attachments, ...rest }) {
          const account = await requireAccount(ctx, accountId, true);
          return presentMessage(await queueMessage(ctx, account, { ...rest, attachments: await resolveAttachments(ctx, account.id, attachments) }, ctx.member.id, signatureId));
        },
      },
      read: { chain: ['mail.messages.read'], description: 'Reads a message', run: async (ctx, accountId, messageId) => presentMessage(await requireAccountMessage(ctx, accountId, messageId)) },
      update: {
        method: 'PATCH',
        chain: ['mail.messages.edit'],
        description: 'Marks a message read or flagged, or moves it to a folder (UpdateMessage)',
        payload: messageChanges,
        run: async (ctx, accountId, messageId, changes) => presentMessage(await updateMessage(ctx, await requireAccountMessage(ctx, accountId, messageId, true), changes)),
      },
      remove: { chain: ['mail.messages.edit'], description: 'Deletes a message for good (a queued one is not sent)', run: async (ctx, accountId, messageId) => deleteMessage(ctx, await requireAccountMessage(ctx, accountId, messageId, true)) },
    }),
    ...subResourceRoutes({
      path: '/mail/accounts/{account_id}/signatures',
      item: 'signature_id',
      record: SIGNATURE,
      list: { chain: ['mail.accounts.read'], description: "Lists an account's signatures, by name", run: async (ctx, accountId) => shown(await listSignatures(ctx, accountId), present.signature) },
      create: { chain: ['mail.accounts.edit'], description: 'Creates a signature', payload: signature, run: async (ctx, accountId, input) => present.signature(await createSignature(ctx, accountId, input)) },
      update: { method: 'PUT', chain: ['mail.accounts.edit'], description: 'Replaces a signature (UpdateSignature)', payload: signature, run: async (ctx, accountId, signatureId, input) => present.signature(await replaceSignature(ctx, accountId, signatureId, input)) },
      remove: { chain: ['mail.accounts.edit'], description: 'Deletes a signature (an account using it as default gets none)', run: deleteSignature },
    }),
    ...subResourceRoutes({
      path: '/mail/accounts/{account_id}/filters',
      item: 'filter_id',
      record: FILTER,
      list: { chain: ['mail.accounts.read'], description: "Lists an account's filters in the order they run", run: async (ctx, accountId) => shown(await listFilters(ctx, accountId), present.filter) },
      create: {
        chain: ['mail.accounts.edit'],
        description: 'Creates a filter (conditions, all or any, then actions), run after the existing ones',
        payload: Joi.object({ name: name().required(), match: Joi.string().valid('all', 'any'), conditions: Joi.array().items(filterCondition()).min(1).max(20).required(), actions: Joi.array().items(filterAction()).min(1).max(10).required() }),
        run: async (ctx, accountId, input) => present.filter(await createFilter(ctx, accountId, input)),
      },
      remove: { chain: ['mail.accounts.edit'], description: 'Deletes a filter', run: deleteFilter },
    }),
    ...subResourceRoutes({
      path: '/mail/accounts/{account_id}/blocked-senders',
      item: 'blocked_id',
      record: BLOCKED_SENDER,
      list: { chain: ['mail.accounts.read'], description: "Lists an account's blocked senders, by address", run: async (ctx, accountId) => shown(await listBlocked(ctx, accountId), present.blocked) },
      create: {
        chain: ['mail.accounts.edit'],
        description: 'Blocks an address (name@example.com) or a domain (@example.com): their mail is dropped',
        payload: Joi.object({ address: Joi.string().trim().min(3).max(320).required() }),
        run: async (ctx, accountId, input) => present.blocked(await blockSender(ctx, accountId, input.address)),
      },
      remove: { chain: ['mail.accounts.edit'], description: 'Unblocks a sender', run: unblockSender },
    }),
    routeFamily('/mail/groups/{group_id}/messages/{message_id}/attachments/{attachment_id}', { params: Joi.idParams('group_id', 'message_id', 'attachment_id') }).get({
      chain: ['mail.messages.read'],
      answers: { single: DOWNLOAD },
      description: "A signed link (5 minutes) to download one file of a group's message (its members, and group managers)",
      handler: async (request, ctx) => ctx.respond.single(await downloadLink(ctx, await requireGroupMessage(ctx, request.params.group_id, request.params.message_id), request.params.attachment_id)),
    }),
    ...subResourceRoutes({
      path: '/mail/groups/{group_id}/messages',
      item: 'message_id',
      record: MESSAGE,
      list: { chain: ['mail.messages.read'], description: "Lists a group's messages, newest first (its members, and group managers)", filters: { q: q() }, run: async (ctx, groupId, query) => shown(await listGroupMessages(ctx, groupId, query), presentMessage) },
      read: { chain: ['mail.messages.read'], description: 'Reads a group message', run: async (ctx, groupId, messageId) => presentMessage(await requireGroupMessage(ctx, groupId, messageId)) },
      update: {
        method: 'PATCH',
        chain: ['mail.messages.edit'],
        description: 'Marks a group message read or flagged, for the whole group (its owners and managers) (UpdateMessage)',
        payload: Joi.object({ seen: Joi.boolean(), flagged: Joi.boolean() }).min(1),
        run: async (ctx, groupId, messageId, changes) => presentMessage(await updateMessage(ctx, await requireGroupMessage(ctx, groupId, messageId, true), changes)),
      },
      remove: { chain: ['mail.messages.edit'], description: 'Deletes a group message (its owners and managers)', run: async (ctx, groupId, messageId) => deleteMessage(ctx, await requireGroupMessage(ctx, groupId, messageId, true)) },
    }),

    drafts.list({
      chain: ['mail.messages.read'],
      description: "Lists the caller's drafts (account_id filters), last saved first",
      query: Joi.listQuery({ account_id: id() }),
      run: (request, ctx) => listDrafts(ctx, request.query.account_id as string | undefined),
    }),
    drafts.post({
      chain: ['mail.messages.send'],
      description: 'Starts a draft in one of the caller\'s accounts',
      payload: Joi.object({ account_id: id().required(), ...composition }),
      async handler(request, ctx) {
        const draft = await createDraft(ctx, request.payload);
        return ctx.respond.single(present.draft(draft), { self: `/mail/drafts/${draft.id}` });
      },
    }),
    draft.get({
      chain: ['mail.messages.read'],
      description: 'Reads a draft',
      run: (request, ctx) => requireDraft(ctx, request.params.draft_id),
    }),
    draft.put({
      chain: ['mail.messages.send'],
      description: 'Saves a draft whole: what is omitted becomes empty (SaveDraft)',
      payload: Joi.object(composition),
      run: (request, ctx) => saveDraft(ctx, request.params.draft_id, request.payload),
    }),
    draft.delete({
      chain: ['mail.messages.send'],
      answers: { single: DELETED },
      description: 'Discards a draft',
      async handler(request, ctx) {
        await deleteDraft(ctx, request.params.draft_id);
        return ctx.respond.single(deleted(request.params.draft_id));
      },
    }),
    draft.at('/send').post({
      chain: ['mail.messages.send'],
      answers: { single: MESSAGE },
      description: 'Sends a draft: it becomes a queued message of its account, and the draft goes',
      payload: Joi.object({ signature_id: id().allow(null) }).allow(null),
      async handler(request, ctx) {
        const message = await sendDraft(ctx, request.params.draft_id, request.payload?.signature_id);
        return ctx.respond.single(presentMessage(message), { self: `/mail/accounts/${message.account_id}/messages/${message.id}` });
      },
    }),
  ];
}
