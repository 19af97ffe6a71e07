import { Joi } from '@wpk/sdk';
import { publicRoute, route, routeFamily } from '../kit.js';
import { ROLES } from '../models/index.js';
import { createComment, deleteComment, listComments, updateComment } from '../services/comments.js';
import { readDocument } from '../services/documents.js';
import { applyPageUpdate, backlinks, brokenLinks, createPage, deletePage, diffVersions, listPages, listVersions, movePage, readPage, restoreVersion, updatePage } from '../services/pages.js';
import { publish, siteIndex, sitemap, sitePage, unpublish } from '../services/publication.js';
import { createSpace, deleteSpace, listMembers, listSpaces, presentMember, setMembers, updateSpace } from '../services/spaces.js';
import { exportSpace, importSpace } from '../services/transfer.js';
import { verifyPage } from '../services/verification.js';
import { APPLIED_UPDATE, BROKEN_LINK, COMMENT, DELETED, DELETED_COMMENT, DELETED_PAGE, DIFF, DOCUMENT, EXPORT, IMPORT, MEMBER, PAGE, PAGE_SUMMARY, SITE, SITE_PAGE, SPACE, VERSION } from './answers.js';

const READ = 'wiki.spaces.read';
const CREATE = 'wiki.spaces.create';
const EDIT = 'wiki.pages.edit';
const COMMENTS = 'wiki.comments.create';

const page = <T>(all: T[], ctx: { page: { offset: number; limit: number } }) => ({ rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), count: all.length });
const name = () => Joi.string().trim().min(1).max(200);
const title = () => Joi.string().trim().min(1).max(300);
const same = <T>(row: T) => row as never;

/** A ProseMirror/tiptap JSON document: its nodes are checked by the service (checkDoc). */
const doc = () => Joi.object({ type: Joi.string().required(), content: Joi.array().max(5000).items(Joi.object().unknown(true)), attrs: Joi.object() }).description('{type: doc, content: [nodes]}');
const markdown = () => Joi.string().max(500_000).allow('');
const watches = () => Joi.array().max(50).items(Joi.string().max(300).pattern(/^mrn:[a-z0-9][a-z0-9._-]*:[a-z0-9][a-z0-9._-]*:[^:]+$/, 'MRN'));
const restricted = () => Joi.array().min(1).max(500).items(Joi.memberId()).allow(null);
const pageFields = { content: doc(), markdown: markdown(), restricted_to: restricted(), owner_id: Joi.memberId().allow(null), review_days: Joi.number().integer().min(1).max(3650).allow(null), watches: watches(), template: Joi.boolean() };
const commentBody = () => Joi.string().trim().min(1).max(10_000);

const spaces = routeFamily('/wiki/spaces', { record: SPACE, present: same, links: (space: { id: string }) => ({ self: `/wiki/spaces/${space.id}` }) });
const space = spaces.at('/{space_id}', { params: Joi.idParams('space_id') });
const spacePages = space.at('/pages', { record: PAGE_SUMMARY, present: same, links: (row: { id: string }) => ({ self: `/wiki/pages/${row.id}` }) });
const onePage = routeFamily('/wiki/pages/{page_id}', { params: Joi.idParams('page_id'), record: PAGE, present: same, links: (row: { id: string }) => ({ self: `/wiki/pages/${row.id}` }) });

/** Every route of the app. */
export const routes = [
  spaces.list({ chain: [READ], description: 'Lists the spaces the caller has a role on, by name, with that role', query: Joi.listQuery(), run: async (_request, ctx) => page(await listSpaces(ctx), ctx) }),
  spaces.post({
    chain: [CREATE],
    description: 'Creates a space; its maker is its admin. default_role (view unless given; none keeps it private) is the role of every member with no role of their own; emits space.created',
    payload: Joi.object({ name: name().required(), description: Joi.string().trim().max(2000).allow(''), default_role: Joi.string().valid('none', 'view', 'comment', 'edit') }),
    run: (request, ctx) => createSpace(ctx, request.payload),
  }),
  space.patch({
    chain: [EDIT],
    description: 'Renames a space, changes its description or default role (space admins)',
    payload: Joi.object({ name: name(), description: Joi.string().trim().max(2000).allow(''), default_role: Joi.string().valid('none', 'view', 'comment', 'edit') }).min(1),
    run: (request, ctx) => updateSpace(ctx, request.params.space_id, request.payload),
  }),
  space.delete({ chain: [EDIT], answers: { single: DELETED }, description: 'Deletes a space with its pages (space admins)', run: (request, ctx) => deleteSpace(ctx, request.params.space_id) }),
  space.at('/members', { record: MEMBER, present: same }).list({ chain: [READ], answers: { collection: MEMBER }, description: "Lists the members' own roles on a space (the default role applies to everyone else)", query: Joi.listQuery(), run: async (request, ctx) => page((await listMembers(ctx, request.params.space_id)).map(presentMember), ctx) }),
  route({
    method: 'PUT',
    path: '/wiki/spaces/{space_id}/members',
    chain: [EDIT],
    answers: { collection: MEMBER },
    description: "Sets the members' own roles on a space (view, comment, edit, admin): the list replaces the one before (space admins)",
    validate: { params: Joi.idParams('space_id'), payload: Joi.object({ members: Joi.array().max(1000).items(Joi.object({ member_id: Joi.memberId().required(), role: Joi.string().valid(...ROLES).required() })).required() }) },
    async handler(request, ctx) {
      const rows = await setMembers(ctx, request.params.space_id, request.payload.members as Array<{ member_id: string; role: (typeof ROLES)[number] }>);
      return ctx.respond.collection(rows, rows.length, { page: 1, perPage: Math.max(1, rows.length), offset: 0, limit: rows.length });
    },
  }),

  spacePages.list({ chain: [READ], description: "A space's pages the caller sees, depth first in order, each with its depth; a page whose parent is hidden from the caller comes at the top with parent_hidden", query: Joi.listQuery(), run: async (request, ctx) => page(await listPages(ctx, request.params.space_id), ctx) }),
  spacePages.post({
    chain: [EDIT],
    answers: { single: PAGE },
    description: 'Adds a page, last under parent_id (the top unless given), with content (a JSON document), markdown, or the content of a template page the caller sees (template_id) (editors); template: true makes it a template; emits page.created',
    payload: Joi.object({ title: title().required(), parent_id: Joi.id().allow(null), template_id: Joi.id(), ...pageFields }),
    run: (request, ctx) => createPage(ctx, request.params.space_id, request.payload as never) as never,
  }),
  onePage.get({ chain: [READ], description: 'Reads a page: its content as the JSON document and as Markdown, its version', run: (request, ctx) => readPage(ctx, request.params.page_id) }),
  onePage.patch({
    chain: [EDIT],
    description: 'Changes a page (editors): title and content (JSON or markdown) name the version read — a stale one is a 409 naming the current version; restricted_to, owner_id, review_days, watches, template; emits page.updated',
    payload: Joi.object({ version: Joi.number().integer().min(1), title: title(), ...pageFields }).min(1),
    run: (request, ctx) => updatePage(ctx, request.params.page_id, request.payload as never),
  }),
  onePage.delete({ chain: [EDIT], answers: { single: DELETED_PAGE }, description: 'Deletes a page with its subtree (editors; links to it show in the broken-link report)', run: (request, ctx) => deletePage(ctx, request.params.page_id) }),
  onePage.at('/move').post({
    chain: [EDIT],
    answers: { single: PAGE },
    description: 'Moves a page with its subtree under parent_id (null: the top) after after_id or before before_id (neither: last); under itself or its subtree is a 409; emits page.moved',
    payload: Joi.object({ parent_id: Joi.id().allow(null), after_id: Joi.id(), before_id: Joi.id() }),
    run: (request, ctx) => movePage(ctx, request.params.page_id, request.payload),
  }),
  onePage.at('/document').get({
    chain: [READ],
    answers: { single: DOCUMENT },
    description: "Reads the page's live document (anyone who sees the page): its whole Yjs state as one update (base64), its JSON snapshot, and whether the caller may edit it",
    run: (request, ctx) => readDocument(ctx, request.params.page_id) as never,
  }),
  onePage.at('/updates').post({
    chain: [EDIT],
    answers: { single: APPLIED_UPDATE },
    description: "Applies a Yjs update (base64) to the page's live document (editors): checked, merged, stored and relayed on wiki/pages/{page_id} as doc.updated; a change of the text is a new version",
    payload: Joi.object({ update: Joi.string().min(1).max(1_400_000).required() }),
    run: (request, ctx) => applyPageUpdate(ctx, request.params.page_id, request.payload.update) as never,
  }),
  onePage.at('/comments', { record: COMMENT, present: same }).list({
    chain: [READ],
    answers: { collection: COMMENT },
    description: "A page's comments, oldest first (anyone who sees the page); status open or resolved filters by their thread",
    query: Joi.listQuery({ status: Joi.string().valid('open', 'resolved') }),
    run: async (request, ctx) => page(await listComments(ctx, request.params.page_id, request.query as { status?: 'open' | 'resolved' }), ctx),
  }),
  onePage.at('/comments', { record: COMMENT, present: same }).post({
    chain: [READ, COMMENTS],
    answers: { single: COMMENT },
    description: "Starts a thread anchored to a range (two Yjs relative positions, base64, and the quoted text; no anchor: the whole page) or replies to one (thread_id) (the space's comment role or above); <@member_id> mentions a member; emits comment.created",
    payload: Joi.object({
      body: commentBody().required(),
      anchor: Joi.object({ from: Joi.string().max(2000).required(), to: Joi.string().max(2000).required() }),
      quote: Joi.string().max(1000).allow(''),
      thread_id: Joi.id(),
    }),
    run: (request, ctx) => createComment(ctx, request.params.page_id, request.payload as never) as never,
  }),
  onePage.at('/backlinks', { record: PAGE_SUMMARY, present: same }).list({ chain: [READ], answers: { collection: PAGE_SUMMARY }, description: 'The pages the caller sees that link to this one, by title', query: Joi.listQuery(), run: async (request, ctx) => page(await backlinks(ctx, request.params.page_id), ctx) }),
  space.at('/broken-links', { record: BROKEN_LINK, present: same }).list({ chain: [READ], answers: { collection: BROKEN_LINK }, description: "Links of the space's pages to pages that no longer exist", query: Joi.listQuery(), run: async (request, ctx) => page(await brokenLinks(ctx, request.params.space_id), ctx) }),
  onePage.at('/verification').post({
    chain: [EDIT],
    answers: { single: PAGE },
    description: 'Verifies a page (its owner — the caller when it has none — or a space admin) for review_days (the page’s, else the setting); emits page.verified and schedules the review',
    payload: Joi.object({ review_days: Joi.number().integer().min(1).max(3650) }),
    run: (request, ctx) => verifyPage(ctx, request.params.page_id, request.payload),
  }),
  onePage.at('/versions', { record: VERSION, present: same }).list({ chain: [READ], answers: { collection: VERSION }, description: "A page's versions, newest first", query: Joi.listQuery(), run: async (request, ctx) => page(await listVersions(ctx, request.params.page_id), ctx) }),
  onePage.at('/diff').get({
    chain: [READ],
    answers: { single: DIFF },
    description: "A version's Markdown (from) against another (to; the current one unless given), line by line",
    query: Joi.object({ from: Joi.number().integer().min(1).required(), to: Joi.number().integer().min(1) }),
    run: (request, ctx) => diffVersions(ctx, request.params.page_id, request.query.from as number, request.query.to as number | undefined) as never,
  }),
  onePage.at('/restore').post({
    chain: [EDIT],
    answers: { single: PAGE },
    description: 'Restores a version as a new one, naming the version read (read_version; stale: 409); emits page.updated',
    payload: Joi.object({ version: Joi.number().integer().min(1).required(), read_version: Joi.number().integer().min(1).required() }),
    run: (request, ctx) => restoreVersion(ctx, request.params.page_id, request.payload.version, request.payload.read_version),
  }),

  route({
    method: 'PATCH',
    path: '/wiki/comments/{comment_id}',
    chain: [READ, COMMENTS],
    answers: { single: COMMENT },
    description: "Edits one's comment (body, its author), or resolves (resolved: true) or reopens its thread (the space's comment role or above); emits comment.updated",
    validate: { params: Joi.idParams('comment_id'), payload: Joi.object({ body: commentBody(), resolved: Joi.boolean() }).or('body', 'resolved') },
    handler: async (request, ctx) => ctx.respond.single(await updateComment(ctx, request.params.comment_id, request.payload)),
  }),
  route({
    method: 'DELETE',
    path: '/wiki/comments/{comment_id}',
    chain: [READ, COMMENTS],
    answers: { single: DELETED_COMMENT },
    description: "Deletes a comment (its author or a space admin); a thread's first comment takes its replies; emits comment.deleted",
    validate: { params: Joi.idParams('comment_id') },
    handler: async (request, ctx) => ctx.respond.single(await deleteComment(ctx, request.params.comment_id)),
  }),
  route({
    method: 'PUT',
    path: '/wiki/spaces/{space_id}/publication',
    chain: [EDIT],
    answers: { single: SPACE },
    description: "Publishes the space, or page_id's subtree, read-only on the workspace's site (space admins); restricted pages never are; emits page.published",
    validate: { params: Joi.idParams('space_id'), payload: Joi.object({ page_id: Joi.id().allow(null) }) },
    handler: async (request, ctx) => ctx.respond.single(await publish(ctx, request.params.space_id, request.payload ?? {})),
  }),
  route({
    method: 'DELETE',
    path: '/wiki/spaces/{space_id}/publication',
    chain: [EDIT],
    answers: { single: SPACE },
    description: 'Takes the space off the site (space admins); emits page.unpublished',
    validate: { params: Joi.idParams('space_id') },
    handler: async (request, ctx) => ctx.respond.single(await unpublish(ctx, request.params.space_id)),
  }),
  route({
    method: 'GET',
    path: '/wiki/spaces/{space_id}/export',
    chain: [READ],
    answers: { single: EXPORT },
    description: 'The pages the caller sees as Markdown files in tree order (Parent/Child.md); links between pages stay page:{id}',
    validate: { params: Joi.idParams('space_id') },
    handler: async (request, ctx) => ctx.respond.single(await exportSpace(ctx, request.params.space_id)),
  }),
  route({
    method: 'POST',
    path: '/wiki/spaces/{space_id}/imports',
    chain: [EDIT],
    answers: { single: IMPORT },
    description: 'Imports Markdown files (A/B.md: page B under A) under parent_id or the top; links to imported files become links by id (editors); page.created each',
    validate: {
      params: Joi.idParams('space_id'),
      payload: Joi.object({ parent_id: Joi.id().allow(null), files: Joi.array().min(1).max(500).items(Joi.object({ path: Joi.string().max(1000).required(), markdown: markdown().required() })).required() }),
    },
    handler: async (request, ctx) => ctx.respond.single(await importSpace(ctx, request.params.space_id, request.payload as never)),
  }),

  publicRoute({
    method: 'GET',
    path: '/wiki/site',
    answers: { single: SITE },
    description: "The workspace's published spaces and their pages (no credential)",
    handler: async (_request, ctx) => ctx.respond.single(await siteIndex(ctx)),
  }),
  publicRoute({
    method: 'GET',
    path: '/wiki/site/pages/{page_id}',
    answers: { single: SITE_PAGE },
    description: 'A published page as HTML with its breadcrumbs and children (404 for anything not published)',
    validate: { params: Joi.idParams('page_id') },
    handler: async (request, ctx) => ctx.respond.single(await sitePage(ctx, request.params.page_id)),
  }),
  publicRoute({
    method: 'GET',
    path: '/wiki/site/sitemap.xml',
    answers: { file: 'application/xml' },
    description: "The sitemap of the workspace's published pages",
    handler: async (_request, ctx) => ctx.respond.file(await sitemap(ctx), { contentType: 'application/xml; charset=utf-8' }),
  }),
];

