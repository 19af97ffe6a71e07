import { InvalidError, Joi, type RichTextNode } from '@wpk/sdk';
import { publicRoute, route } from '../kit.js';
import { PRINCIPAL_TYPES, SHARE_LEVELS } from '../models/index.js';
import { requirePaper } from '../services/access.js';
import { createComment, deleteComment, listComments, updateComment } from '../services/comments.js';
import { applyUpdate, paperDocuments, readDocument } from '../services/documents.js';
import { MAX_IMAGE_BYTES, readImage, uploadImage } from '../services/images.js';
import { checkRichText } from '../services/json.js';
import { createFolder, createPaper, deleteFolder, listFolders, listPapers, purgePaper, restorePaper, trashPaper, updateFolder, updatePaper } from '../services/papers.js';
import { presentComment, presentFolder, presentLink, presentPaper, presentShare, presentSuggestion, presentVersion } from '../services/present.js';
import { createLink, deleteLink, readShares, redeemLink, replaceShares, sharedPaper, type ShareInput } from '../services/shares.js';
import { createVersion, diffVersion, listVersions, restoreVersion } from '../services/versions.js';
import { APPLIED_UPDATE, COMMENT, DELETED, DEPARTMENT, IMPORT_UPLOAD, DIFF, DOCUMENT, FOLDER, IMAGE, LINK, PAPER, PAPER_WITH_CONTENT, SHARED_PAPER, SHARES, SIGNATURE_REQUEST, SUGGESTION, TEMPLATE, VERSION } from './answers.js';
import { requestSignature } from '../services/signatures.js';
import { contentFromTemplate, listTemplates } from '../services/templates.js';
import { createSuggestion, decideSuggestion, listSuggestions } from '../services/suggestions.js';
import { createImportUpload, EXPORT_FORMATS, exportPaper, importDocx, importMarkdown, MAX_IMPORT_DOCX_BYTES, MAX_IMPORT_MARKDOWN, MAX_UPLOADED_DOCX_BYTES, type ExportFormat } from '../services/transfer.js';
import { listDepartments } from '../services/departments.js';

const id = () => Joi.id();
const params = (...names: string[]) => Joi.object(Object.fromEntries(names.map((name) => [name, id().required()])));
const title = () => Joi.string().trim().min(1).max(300);
const folderName = () => Joi.string().trim().min(1).max(200);
const READ = ['papers.papers.read'];
const P = '/papers/{paper_id}';

const sharesAnswer = (result: Awaited<ReturnType<typeof readShares>>) => ({ paper_id: result.paper.id, shares: result.shares.map(presentShare), links: result.links.map(presentLink) });

/** Every route of the Papers app (the manifest's authorization table lists the same). */
export const routes = [
  route({
    method: 'GET',
    path: '/papers',
    chain: READ,
    answers: { collection: PAPER },
    description: 'Lists the papers one may open, most recently changed first: scope all, mine (owned) or shared (with one); a folder; status trashed lists one\'s trash; q matches the title',
    validate: { query: Joi.listQuery({ q: Joi.string().max(200).allow(''), folder_id: id(), scope: Joi.string().valid('all', 'mine', 'shared'), status: Joi.string().valid('active', 'trashed') }) },
    async handler(request, ctx) {
      const { rows, count } = await listPapers(ctx, request.query as never);
      return ctx.respond.collection(rows.map(({ paper, level }) => presentPaper(paper, level)), count);
    },
  }),
  route({
    method: 'POST',
    path: '/papers',
    chain: ['papers.papers.read', 'papers.papers.create'],
    answers: { single: PAPER },
    description: 'Creates a paper (one owns it), in one of one\'s folders, empty, with content (ProseMirror JSON) or from a template (template_id) with its merge fields filled (merge); template: true makes a template',
    validate: {
      payload: Joi.object({
        title: title().when('template_id', { is: Joi.exist(), otherwise: Joi.required() }),
        folder_id: id().allow(null),
        content: Joi.object().unknown(true),
        template: Joi.boolean(),
        template_id: id(),
        merge: Joi.object().pattern(/^.{1,100}$/, Joi.string().max(10_000).allow('')).max(100),
      })
        .oxor('content', 'template_id')
        .with('merge', 'template_id'),
    },
    async handler(request, ctx) {
      const { template_id: templateId, merge } = request.payload;
      const fromTemplate = templateId ? await contentFromTemplate(ctx, templateId, (merge ?? {}) as Record<string, string>) : null;
      const content = fromTemplate ? fromTemplate.content : request.payload.content ? checkRichText(request.payload.content, 'content') : undefined;
      const paper = await createPaper(ctx, { title: request.payload.title ?? fromTemplate!.template.title, folder_id: request.payload.folder_id, content, template: request.payload.template });
      return ctx.respond.single(presentPaper(paper, 'owner'), { self: `/papers/${paper.id}` });
    },
  }),
  route({
    method: 'POST',
    path: '/papers/imports',
    chain: ['papers.papers.read', 'papers.papers.create'],
    answers: { single: PAPER },
    description: `Creates a paper (one owns it) from Markdown (markdown: at most ${MAX_IMPORT_MARKDOWN} characters) or a Word document (docx: the file in base64, at most ${MAX_IMPORT_DOCX_BYTES} bytes; or file_key: a file uploaded through POST /papers/imports/uploads, at most ${MAX_UPLOADED_DOCX_BYTES} bytes, removed once imported): headings, lists, task lists, quotes, code, rules, tables, bold, italic, underline, strike, code and links (a DOCX's images too); titled by title, else by its first heading, else by filename`,
    validate: {
      payload: Joi.object({
        title: title(),
        folder_id: id().allow(null),
        markdown: Joi.string().max(MAX_IMPORT_MARKDOWN).allow(''),
        docx: Joi.string().max(Math.ceil(MAX_IMPORT_DOCX_BYTES / 3) * 4 + 1000),
        file_key: Joi.string().max(200),
        filename: Joi.string().max(255),
      })
        .xor('markdown', 'docx', 'file_key')
        .messages({ 'object.missing': 'markdown, docx or file_key is required', 'object.xor': 'give one of markdown, docx or file_key' })
        .example({ title: 'Plan', markdown: '# Plan\n\n- [ ] draft' }),
    },
    async handler(request, ctx) {
      const paper = request.payload.markdown === undefined ? await importDocx(ctx, request.payload) : await importMarkdown(ctx, { ...request.payload, markdown: request.payload.markdown });
      return ctx.respond.single(presentPaper(paper, 'owner'), { self: `/papers/${paper.id}` });
    },
  }),
  route({
    method: 'POST',
    path: '/papers/imports/uploads',
    chain: ['papers.papers.read', 'papers.papers.create'],
    answers: { single: IMPORT_UPLOAD },
    description: `Gives a signed link (PUT, 15 minutes) to upload a Word document of at most ${MAX_UPLOADED_DOCX_BYTES} bytes (20 MB) to import; POST /papers/imports then takes its file_key`,
    validate: {
      payload: Joi.object({
        size_bytes: Joi.number().integer().min(1).max(MAX_UPLOADED_DOCX_BYTES).messages({ 'number.max': `size_bytes: a Word document imported is at most ${MAX_UPLOADED_DOCX_BYTES} bytes (20 MB)` }),
        filename: Joi.string().max(255),
        content_type: Joi.string().max(200),
      }).example({ size_bytes: 1_500_000, filename: 'Handbook.docx' }),
    },
    async handler(request, ctx) {
      return ctx.respond.single(await createImportUpload(ctx, request.payload));
    },
  }),
  route({
    method: 'GET',
    path: '/papers/departments',
    chain: READ,
    answers: { collection: DEPARTMENT },
    description: "Lists the departments a paper may be shared with (the app's copy of the Workers app's departments), by name",
    async handler(_request, ctx) {
      const rows = await listDepartments(ctx);
      return ctx.respond.collection(rows, rows.length);
    },
  }),
  route({
    method: 'GET',
    path: '/papers/templates',
    chain: READ,
    answers: { collection: TEMPLATE },
    description: 'Lists the templates one may open (one\'s own and those shared with one), most recently changed first, each with its merge fields; q matches the title',
    validate: { query: Joi.listQuery({ q: Joi.string().max(200).allow('') }) },
    async handler(request, ctx) {
      const { rows, count } = await listTemplates(ctx, request.query as never);
      return ctx.respond.collection(rows.map(({ paper, level, fields }) => ({ ...presentPaper(paper, level), fields })), count);
    },
  }),
  publicRoute({
    method: 'GET',
    path: '/papers/shared/{token}',
    answers: { single: SHARED_PAPER },
    description: "Public, without signing in: the paper behind an anonymous link (POST /papers/{paper_id}/links with anonymous: true), read-only: its title, its content as HTML and as JSON (images inlined) and the link's expiry; the front-end's page /public/apps/papers/shared.html?token={token} shows it; unknown, withdrawn or expired: 404",
    validate: { params: Joi.object({ token: Joi.string().min(10).max(100).pattern(/^[A-Za-z0-9_-]+$/).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await sharedPaper(ctx, request.params.token));
    },
  }),
  route({
    method: 'GET',
    path: '/papers/folders',
    chain: READ,
    answers: { collection: FOLDER },
    description: "Lists one's folders, by name",
    async handler(_request, ctx) {
      const rows = await listFolders(ctx);
      return ctx.respond.collection(rows.map(presentFolder), rows.length);
    },
  }),
  route({
    method: 'POST',
    path: '/papers/folders',
    chain: ['papers.papers.read', 'papers.papers.create'],
    answers: { single: FOLDER },
    description: 'Creates a folder of one\'s own, at the top or inside another of one\'s folders',
    validate: { payload: Joi.object({ name: folderName().required(), parent_id: id().allow(null) }) },
    async handler(request, ctx) {
      return ctx.respond.single(presentFolder(await createFolder(ctx, request.payload)));
    },
  }),
  route({
    method: 'PATCH',
    path: '/papers/folders/{folder_id}',
    chain: ['papers.papers.read', 'papers.papers.create'],
    answers: { single: FOLDER },
    description: 'Renames or moves one of one\'s folders (never into itself or below itself)',
    validate: { params: params('folder_id'), payload: Joi.object({ name: folderName(), parent_id: id().allow(null) }).or('name', 'parent_id') },
    async handler(request, ctx) {
      return ctx.respond.single(presentFolder(await updateFolder(ctx, request.params.folder_id, request.payload)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/papers/folders/{folder_id}',
    chain: ['papers.papers.read', 'papers.papers.create'],
    answers: { single: DELETED },
    description: 'Deletes one of one\'s folders; 409 while it holds papers (trashed ones too) or folders',
    validate: { params: params('folder_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteFolder(ctx, request.params.folder_id));
    },
  }),
  route({
    method: 'POST',
    path: '/papers/links/redeem',
    chain: READ,
    answers: { single: PAPER },
    description: "Opens a paper by a link's token: one gets a share at the link's level (a higher level one holds stays); unknown, withdrawn or expired: 404",
    validate: { payload: Joi.object({ token: Joi.string().min(10).max(100).required() }) },
    async handler(request, ctx) {
      const { paper, level } = await redeemLink(ctx, request.payload.token);
      return ctx.respond.single(presentPaper(paper, level), { self: `/papers/${paper.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/papers/links/{link_id}',
    chain: READ,
    answers: { single: DELETED },
    description: "Withdraws a paper's link (the paper's owner)",
    validate: { params: params('link_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteLink(ctx, request.params.link_id));
    },
  }),
  route({
    method: 'PATCH',
    path: '/papers/comments/{comment_id}',
    chain: ['papers.papers.read', 'papers.comments.create'],
    answers: { single: COMMENT },
    description: "Edits one's comment (body), or resolves (resolved: true) or reopens its thread",
    validate: { params: params('comment_id'), payload: Joi.object({ body: Joi.string().trim().min(1).max(10_000), resolved: Joi.boolean() }).or('body', 'resolved') },
    async handler(request, ctx) {
      return ctx.respond.single(presentComment(await updateComment(ctx, request.params.comment_id, request.payload)));
    },
  }),
  route({
    method: 'DELETE',
    path: '/papers/comments/{comment_id}',
    chain: READ,
    answers: { single: DELETED },
    description: "Deletes a comment (its author or the paper's owner); a thread's first comment takes its replies",
    validate: { params: params('comment_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteComment(ctx, request.params.comment_id));
    },
  }),
  route({
    method: 'POST',
    path: '/papers/suggestions/{suggestion_id}/accept',
    chain: READ,
    answers: { single: SUGGESTION },
    description: 'Accepts an open suggestion (one who may edit the paper): merged into the live document as one edit everyone receives',
    validate: { params: params('suggestion_id') },
    async handler(request, ctx) {
      return ctx.respond.single(presentSuggestion(await decideSuggestion(ctx, request.params.suggestion_id, true)));
    },
  }),
  route({
    method: 'POST',
    path: '/papers/suggestions/{suggestion_id}/reject',
    chain: READ,
    answers: { single: SUGGESTION },
    description: 'Rejects an open suggestion (one who may edit the paper): the document is left as it is',
    validate: { params: params('suggestion_id') },
    async handler(request, ctx) {
      return ctx.respond.single(presentSuggestion(await decideSuggestion(ctx, request.params.suggestion_id, false)));
    },
  }),
  route({
    method: 'GET',
    path: P,
    chain: READ,
    answers: { single: PAPER_WITH_CONTENT },
    description: 'Reads a paper with its stable JSON snapshot (ProseMirror JSON) and plain text; a trashed one (its owner)',
    validate: { params: params('paper_id') },
    async handler(request, ctx) {
      const { paper, level } = await requirePaper(ctx, request.params.paper_id, { trashed: true });
      const snapshot = await paperDocuments.snapshot(ctx, paper.id);
      const base = `/papers/${paper.id}`;
      return ctx.respond.single(
        { ...presentPaper(paper, level), content: (snapshot?.content ?? {}) as Record<string, unknown>, text: snapshot?.text ?? '' },
        { document: `${base}/document`, shares: `${base}/shares`, comments: `${base}/comments`, versions: `${base}/versions` },
      );
    },
  }),
  route({
    method: 'PATCH',
    path: P,
    chain: READ,
    answers: { single: PAPER },
    description: "Renames a paper (edit), moves it to another of its owner's folders or makes it a template (template: true) or a paper again (its owner)",
    validate: { params: params('paper_id'), payload: Joi.object({ title: title(), folder_id: id().allow(null), template: Joi.boolean() }).or('title', 'folder_id', 'template') },
    async handler(request, ctx) {
      const { paper, level } = await updatePaper(ctx, request.params.paper_id, request.payload);
      return ctx.respond.single(presentPaper(paper, level));
    },
  }),
  route({
    method: 'DELETE',
    path: P,
    chain: READ,
    answers: { single: PAPER },
    description: 'Moves a paper to the trash (its owner); POST /papers/{paper_id}/restore brings it back, POST /papers/{paper_id}/purge deletes it for good',
    validate: { params: params('paper_id') },
    async handler(request, ctx) {
      const { paper, level } = await trashPaper(ctx, request.params.paper_id);
      return ctx.respond.single(presentPaper(paper, level));
    },
  }),
  route({
    method: 'POST',
    path: `${P}/purge`,
    chain: READ,
    answers: { single: DELETED },
    description: 'Deletes a trashed paper for good (its owner), with its document, shares, links, comments and versions',
    validate: { params: params('paper_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await purgePaper(ctx, request.params.paper_id));
    },
  }),
  route({
    method: 'POST',
    path: `${P}/restore`,
    chain: READ,
    answers: { single: PAPER },
    description: 'Brings a paper back from the trash (its owner)',
    validate: { params: params('paper_id') },
    async handler(request, ctx) {
      const { paper, level } = await restorePaper(ctx, request.params.paper_id);
      return ctx.respond.single(presentPaper(paper, level));
    },
  }),
  route({
    method: 'GET',
    path: `${P}/document`,
    chain: READ,
    answers: { single: DOCUMENT },
    description: "Reads the paper's collaborative document: its whole Yjs state as one update (base64), and its JSON snapshot",
    validate: { params: params('paper_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await readDocument(ctx, request.params.paper_id));
    },
  }),
  route({
    method: 'GET',
    path: `${P}/export`,
    chain: READ,
    answers: { file: Object.values(EXPORT_FORMATS).map((format) => format.contentType) },
    description: 'The paper as a file to download, named by its title (one who may open it): format markdown (text/markdown), html (text/html, a whole page), docx (a Word document) or pdf (A4, printed by Chromium: 503 when the server has none)',
    validate: { params: params('paper_id'), query: Joi.object({ format: Joi.string().valid(...Object.keys(EXPORT_FORMATS)).required() }) },
    async handler(request, ctx) {
      const file = await exportPaper(ctx, request.params.paper_id, request.query.format as ExportFormat);
      return ctx.respond.file(file.body, { contentType: file.contentType, filename: file.filename });
    },
  }),
  route({
    method: 'POST',
    path: `${P}/images`,
    chain: READ,
    answers: { single: IMAGE },
    description: `Uploads an image for the paper (edit): data is the file in base64 (a PNG, JPEG, GIF or WebP by its bytes; at most the max_image_bytes setting, itself at most ${MAX_IMAGE_BYTES} bytes); an image node names it by the answer's src`,
    validate: { params: params('paper_id'), payload: Joi.object({ data: Joi.string().min(1).max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 4).required() }) },
    async handler(request, ctx) {
      const image = await uploadImage(ctx, request.params.paper_id, request.payload);
      return ctx.respond.single(image, { self: image.src });
    },
  }),
  route({
    method: 'GET',
    path: `${P}/images/{image_id}`,
    chain: READ,
    answers: { file: 'image/png' },
    description: "One of the paper's images, its bytes as uploaded (anyone who may open the paper): image/png, image/jpeg, image/gif or image/webp",
    validate: { params: params('paper_id', 'image_id') },
    async handler(request, ctx) {
      const image = await readImage(ctx, request.params.paper_id, request.params.image_id);
      return ctx.respond.file(image.bytes, { contentType: image.contentType });
    },
  }),
  route({
    method: 'POST',
    path: `${P}/updates`,
    chain: READ,
    answers: { single: APPLIED_UPDATE },
    description: "Applies a Yjs update (base64) to the paper's document (edit): checked, merged, stored, and relayed on papers/{paper_id} as doc.updated",
    validate: { params: params('paper_id'), payload: Joi.object({ update: Joi.string().min(1).max(1_400_000).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await applyUpdate(ctx, request.params.paper_id, request.payload.update));
    },
  }),
  route({
    method: 'POST',
    path: `${P}/signature-requests`,
    chain: READ,
    answers: { single: SIGNATURE_REQUEST },
    description: 'Sends the paper for signature (edit): printed to PDF, core.papers.paper.signature_requested carries it and the signers (members by MRN, others by name and e-mail), and the Sign app makes the caller\'s draft envelope',
    validate: {
      params: params('paper_id'),
      payload: Joi.object({
        message: Joi.string().trim().max(2000).allow(''),
        signers: Joi.array()
          .items(
            Joi.object({
              member_mrn: Joi.memberMrn(),
              name: Joi.string().trim().min(1).max(200),
              email: Joi.string().trim().email({ tlds: false }).max(320),
              role: Joi.string().valid('signer', 'approver', 'copy'),
              group: Joi.number().integer().min(1).max(20),
            })
              .xor('member_mrn', 'email')
              .and('name', 'email')
              .messages({ 'object.missing': 'a signer is a member_mrn, or a name and an email', 'object.xor': 'a signer is a member_mrn, or a name and an email, not both', 'object.and': 'a signer is a member_mrn, or a name and an email' }),
          )
          .min(1)
          .max(20)
          .required(),
      }),
    },
    async handler(request, ctx) {
      const answer = await requestSignature(ctx, request.params.paper_id, request.payload);
      return ctx.respond.single(answer, { self: `/papers/${answer.paper_id}` });
    },
  }),
  route({
    method: 'GET',
    path: `${P}/shares`,
    chain: READ,
    answers: { single: SHARES },
    description: "Reads a paper's shares (and, for its owner, its links)",
    validate: { params: params('paper_id') },
    async handler(request, ctx) {
      return ctx.respond.single(sharesAnswer(await readShares(ctx, request.params.paper_id)));
    },
  }),
  route({
    method: 'PUT',
    path: `${P}/shares`,
    chain: READ,
    answers: { single: SHARES },
    description: "Replaces a paper's shares (its owner): members, roles (owner, admin, member) and departments (of the Workers app: their members and those of the departments below), each at view, comment or edit",
    validate: {
      params: params('paper_id'),
      payload: Joi.object({
        shares: Joi.array()
          .max(200)
          .items(Joi.object({ principal_type: Joi.string().valid(...PRINCIPAL_TYPES).required(), principal_id: Joi.string().max(100).required(), level: Joi.string().valid(...SHARE_LEVELS).required() }))
          .required(),
      }),
    },
    async handler(request, ctx) {
      for (const [index, share] of request.payload.shares.entries()) {
        if (share.principal_type === 'role' && !['owner', 'admin', 'member'].includes(share.principal_id)) throw new InvalidError(`shares[${index}].principal_id: a role is owner, admin or member`);
        if (share.principal_type === 'member' && !/^[0-9a-f-]{36}$/i.test(share.principal_id)) throw new InvalidError(`shares[${index}].principal_id: must be a member id`);
        if (share.principal_type === 'department' && !/^[0-9a-f-]{36}$/i.test(share.principal_id)) throw new InvalidError(`shares[${index}].principal_id: must be a department id (of the Workers app)`);
      }
      const shares = (request.payload.shares as ShareInput[]).map((share) => (share.principal_type === 'role' ? share : { ...share, principal_id: share.principal_id.toLowerCase() }));
      return ctx.respond.single(sharesAnswer(await replaceShares(ctx, request.params.paper_id, shares)));
    },
  }),
  route({
    method: 'POST',
    path: `${P}/links`,
    chain: READ,
    answers: { single: LINK },
    description: 'Makes a token link to a paper (its owner) at view, comment or edit, expiring at expires_at (at most max_link_days; default that long); anonymous: true (view only) opens its public page without signing in; the token is answered once',
    validate: { params: params('paper_id'), payload: Joi.object({ level: Joi.string().valid(...SHARE_LEVELS).required(), expires_at: Joi.date().iso().allow(null), anonymous: Joi.boolean() }) },
    async handler(request, ctx) {
      const { link, token, url } = await createLink(ctx, request.params.paper_id, { level: request.payload.level, expires_at: request.payload.expires_at ? new Date(request.payload.expires_at).toISOString() : null, anonymous: request.payload.anonymous });
      return ctx.respond.single({ ...presentLink(link), token, ...(url ? { url } : {}) });
    },
  }),
  route({
    method: 'GET',
    path: `${P}/comments`,
    chain: READ,
    answers: { collection: COMMENT },
    description: "Lists a paper's comments, oldest first; status open or resolved filters by their thread",
    validate: { params: params('paper_id'), query: Joi.object({ status: Joi.string().valid('open', 'resolved') }) },
    async handler(request, ctx) {
      const rows = await listComments(ctx, request.params.paper_id, request.query);
      return ctx.respond.collection(rows.map(presentComment), rows.length);
    },
  }),
  route({
    method: 'POST',
    path: `${P}/comments`,
    chain: ['papers.papers.read', 'papers.comments.create'],
    answers: { single: COMMENT },
    description: 'Starts a thread anchored to a range (two Yjs relative positions, base64, and the quoted text) or replies to one (thread_id)',
    validate: {
      params: params('paper_id'),
      payload: Joi.object({
        body: Joi.string().trim().min(1).max(10_000).required(),
        anchor: Joi.object({ from: Joi.string().max(2000).required(), to: Joi.string().max(2000).required() }),
        quote: Joi.string().max(1000).allow(''),
        thread_id: id(),
      }),
    },
    async handler(request, ctx) {
      return ctx.respond.single(presentComment(await createComment(ctx, request.params.paper_id, request.payload)));
    },
  }),
  route({
    method: 'GET',
    path: `${P}/suggestions`,
    chain: READ,
    answers: { collection: SUGGESTION },
    description: "Lists a paper's suggestions, oldest first; status open, accepted or rejected",
    validate: { params: params('paper_id'), query: Joi.object({ status: Joi.string().valid('open', 'accepted', 'rejected') }) },
    async handler(request, ctx) {
      const rows = await listSuggestions(ctx, request.params.paper_id, request.query);
      return ctx.respond.collection(rows.map(presentSuggestion), rows.length);
    },
  }),
  route({
    method: 'POST',
    path: `${P}/suggestions`,
    chain: READ,
    answers: { single: SUGGESTION },
    description: 'Suggests a change (level edit, papers.papers.suggest): a Yjs update (base64) made on a fork of the document, checked and kept apart until accepted or rejected',
    validate: { params: params('paper_id'), payload: Joi.object({ update: Joi.string().min(1).max(1_400_000).required(), note: Joi.string().max(1000).allow('') }) },
    async handler(request, ctx) {
      return ctx.respond.single(presentSuggestion(await createSuggestion(ctx, request.params.paper_id, request.payload)));
    },
  }),
  route({
    method: 'GET',
    path: `${P}/versions`,
    chain: READ,
    answers: { collection: VERSION },
    description: "Lists a paper's versions, newest first: automatic, named and restores",
    validate: { params: params('paper_id') },
    async handler(request, ctx) {
      const rows = await listVersions(ctx, request.params.paper_id);
      return ctx.respond.collection(rows.map((row) => presentVersion(row)), rows.length);
    },
  }),
  route({
    method: 'POST',
    path: `${P}/versions`,
    chain: READ,
    answers: { single: VERSION },
    description: "Names the paper's current state as a version (edit)",
    validate: { params: params('paper_id'), payload: Joi.object({ name: Joi.string().trim().min(1).max(200).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(presentVersion(await createVersion(ctx, request.params.paper_id, request.payload)));
    },
  }),
  route({
    method: 'GET',
    path: `${P}/versions/{version_id}/diff`,
    chain: READ,
    answers: { single: DIFF },
    description: 'The line diff of the text from a version to another (to) or to the paper now (to absent or current)',
    validate: { params: params('paper_id', 'version_id'), query: Joi.object({ to: Joi.alternatives(Joi.id(), Joi.string().valid('current')) }) },
    async handler(request, ctx) {
      return ctx.respond.single(await diffVersion(ctx, request.params.paper_id, request.params.version_id, request.query.to as string | undefined));
    },
  }),
  route({
    method: 'POST',
    path: `${P}/versions/{version_id}/restore`,
    chain: READ,
    answers: { single: VERSION },
    description: "Brings the paper's text back to a version (edit): one live edit everyone receives, kept as a restore version",
    validate: { params: params('paper_id', 'version_id') },
    async handler(request, ctx) {
      return ctx.respond.single(presentVersion(await restoreVersion(ctx, request.params.paper_id, request.params.version_id)));
    },
  }),
];

export type { RichTextNode };
