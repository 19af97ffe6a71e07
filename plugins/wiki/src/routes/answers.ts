import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { ROLES, VERIFICATION_STATES } from '../models/index.js';

const ACCESS = ['none', ...ROLES] as const;

/** A space, with the caller's role on it. */
export const SPACE: JoiObjectSchema = recordSchema(
  {
    id: field.uuid(),
    name: Joi.string(),
    description: Joi.string().allow(''),
    default_role: field.oneOf(ACCESS).description('The role of every member with no role of their own on the space'),
    role: field.oneOf(ACCESS).description("The caller's role"),
    created_by: field.uuid(),
    publication: Joi.object({ page_id: field.uuid().allow(null).description('The published subtree; null: the whole space'), published_at: field.instant() }).allow(null),
    revision: Joi.number().integer().min(1),
    published_pages: field.count().description('After PUT/DELETE publication: how many pages the site shows'),
    created_at: field.instant(),
    updated_at: field.instant(),
  },
  { optional: ['published_pages'] },
).id('WikiSpace');

/** A member's own role on a space. */
export const MEMBER: JoiObjectSchema = recordSchema({ space_id: field.uuid(), member_id: field.uuid(), role: field.oneOf(ROLES) }).id('WikiSpaceMember');

const summary = {
  id: field.uuid(),
  space_id: field.uuid(),
  parent_id: field.uuid().allow(null),
  position: Joi.string().description('Fractional order among siblings (byte order)'),
  title: Joi.string(),
  version: Joi.number().integer().min(1),
  restricted_to: Joi.array().items(field.uuid()).allow(null).description('Only these members (and the space admins) see the page and what it rules; null: inherits'),
  owner_id: field.uuid().allow(null),
  review_days: Joi.number().integer().allow(null),
  verification: field.oneOf(VERIFICATION_STATES),
  verified_at: field.optionalInstant(),
  due_at: field.optionalInstant(),
  watches: Joi.array().items(Joi.string()),
  template: Joi.boolean().description('A template: new pages may start from it (template_id)'),
  depth: field.count(),
  parent_hidden: Joi.boolean().description('The page has a parent the caller does not see: it is listed at the top'),
  created_by: field.uuid(),
  updated_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
};

/** A page as listed (no content). */
export const PAGE_SUMMARY: JoiObjectSchema = recordSchema(summary).id('WikiPageSummary');

/** A page with its content as a JSON document and as Markdown. */
export const PAGE: JoiObjectSchema = recordSchema({ ...summary, content: Joi.object().unknown(true).description('The stable JSON snapshot: {type: doc, content: [...]}'), markdown: Joi.string().allow('') }).id('WikiPage');

/** A deleted space. */
export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true) }).id('WikiDeleted');

/** A deleted page and how many pages went with it. */
export const DELETED_PAGE: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true), pages: field.count() }).id('WikiDeletedPage');

/** A link to a page that no longer exists. */
export const BROKEN_LINK: JoiObjectSchema = recordSchema({ page_id: field.uuid(), title: Joi.string(), target_page_id: field.uuid() }).id('WikiBrokenLink');

/** A version of a page. */
export const VERSION: JoiObjectSchema = recordSchema({ page_id: field.uuid(), version: Joi.number().integer().min(1), title: Joi.string(), created_by: field.uuid(), created_at: field.instant() }).id('WikiPageVersion');

/** Two versions' Markdown, line by line. */
export const DIFF: JoiObjectSchema = recordSchema({
  page_id: field.uuid(),
  from: Joi.number().integer(),
  to: Joi.number().integer(),
  title: Joi.object({ from: Joi.string(), to: Joi.string() }).allow(null),
  lines: Joi.array().items(Joi.object({ op: field.oneOf(['keep', 'add', 'remove']), text: Joi.string().allow('') })),
}).id('WikiPageDiff');

/** A space as Markdown files. */
export const EXPORT: JoiObjectSchema = recordSchema({
  space_id: field.uuid(),
  name: Joi.string(),
  files: Joi.array().items(Joi.object({ path: Joi.string(), page_id: field.uuid(), title: Joi.string(), markdown: Joi.string().allow('') })),
}).id('WikiExport');

/** What an import made. */
export const IMPORT: JoiObjectSchema = recordSchema({ space_id: field.uuid(), pages: Joi.array().items(Joi.object({ id: field.uuid(), title: Joi.string() })) }).id('WikiImport');

/** The public site's index. */
export const SITE: JoiObjectSchema = recordSchema({
  workspace: Joi.string(),
  spaces: Joi.array().items(Joi.object({ id: field.uuid(), name: Joi.string(), description: Joi.string().allow(''), pages: Joi.array().items(Joi.object({ id: field.uuid(), title: Joi.string(), depth: field.count(), url: Joi.string() })) })),
}).id('WikiSite');

const link = Joi.object({ id: field.uuid(), title: Joi.string(), url: Joi.string() });

/** A published page as the site shows it. */
export const SITE_PAGE: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  title: Joi.string(),
  space: Joi.object({ id: field.uuid(), name: Joi.string() }),
  html: Joi.string().allow(''),
  breadcrumbs: Joi.array().items(link),
  children: Joi.array().items(link),
  updated_at: field.instant(),
}).id('WikiSitePage');

/** A page's live document: what `<wpk-collab-editor>` loads first. */
export const DOCUMENT: JoiObjectSchema = recordSchema({
  page_id: field.uuid(),
  role: field.oneOf(ACCESS).description("The caller's role on the page's space"),
  editable: Joi.boolean().description('True when the caller may edit the page (edit or admin)'),
  version: Joi.number().integer().min(1).description("The page's version now"),
  update: Joi.string().allow('').description('The whole document as one Yjs update, base64'),
  content: Joi.object().unknown(true).description('The stable JSON snapshot (the same as the page’s content)'),
  text: Joi.string().allow('').description('Its plain text, one line a block'),
}).id('WikiPageDocument');

/** What a client's update did. */
export const APPLIED_UPDATE: JoiObjectSchema = recordSchema({
  page_id: field.uuid(),
  applied: Joi.boolean().description('False when the update brought nothing new'),
  version: Joi.number().integer().min(1).description("The page's version after it (one more when the text changed)"),
  text_length: Joi.number().integer(),
}).id('WikiAppliedUpdate');

/** A comment on a page: a thread's first comment carries the thread's anchor, quote and resolution. */
export const COMMENT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  page_id: field.uuid(),
  thread_id: field.uuid().description("The thread's first comment (its own id when it starts one)"),
  body: Joi.string().description('Plain text; <@member_id> mentions a member'),
  anchor: Joi.object({ from: Joi.string(), to: Joi.string() }).allow(null).description('Two Yjs relative positions (base64) bounding the range; null: the whole page, or a reply'),
  quote: Joi.string().allow('').description('The text the range held when the thread started'),
  author_id: field.uuid(),
  author_mrn: field.memberMrn(),
  edited_at: field.optionalInstant(),
  resolved_at: field.optionalInstant(),
  resolved_by: field.uuid().allow(null),
  created_at: field.instant(),
}).id('WikiComment');

/** A deleted comment and how many replies went with it. */
export const DELETED_COMMENT: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean().valid(true), replies: field.count() }).id('WikiDeletedComment');
