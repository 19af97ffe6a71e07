import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/** What a channel is about: the whole company, one department (of the workers app), or a topic. */
export const CHANNEL_KINDS = ['company', 'department', 'topic'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** Who may post in a channel: every member, owners and admins, or the listed platform roles. */
export const POST_POLICIES = ['everyone', 'admins', 'roles'] as const;
export type PostPolicy = (typeof POST_POLICIES)[number];

/** The platform roles a `roles` channel may list. */
export const PLATFORM_ROLES = ['owner', 'admin', 'member'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

/** A post's states (see services/posts.ts for the moves). */
export const POST_STATUSES = ['draft', 'scheduled', 'published', 'archived', 'removed'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** A channel of the feed. */
export const channels = defineModel('channels', {
  id: column.uuid().primaryKey().defaultRandom(),
  name: column.string(200),
  kind: column.enum(CHANNEL_KINDS, 20),
  department_mrn: column.string(100).nullable(),
  description: column.string(1000).nullable(),
  post_policy: column.enum(POST_POLICIES, 20),
  post_roles: column.json<PlatformRole[]>().default([]),
  created_by: column.uuid(),
});
export type Channel = DeclaredRow<typeof channels>;

/** A post in a channel; `body` is sanitised HTML. */
export const posts = defineModel('posts', {
  id: column.uuid().primaryKey().defaultRandom(),
  channel_id: column.uuid(),
  author_id: column.uuid(),
  title: column.string(200).nullable(),
  body: column.text(),
  status: column.enum(POST_STATUSES, 20),
  requires_acknowledgement: column.boolean().default(false),
  publish_at: column.date().nullable(),
  published_at: column.date().nullable(),
  removed_reason: column.string(500).nullable(),
  removed_by: column.uuid().nullable(),
  pinned_until: column.date().nullable(),
  revision: column.integer().default(1),
  /** The department whose members read it (a department channel's), or null: everyone. */
  department_id: column.uuid().nullable(),
});
export type Post = DeclaredRow<typeof posts>;

/** One version of a post's title and body (revision 1 is the text it was created with). */
export const revisions = defineModel('revisions', {
  id: column.uuid().primaryKey().defaultRandom(),
  post_id: column.uuid(),
  revision: column.integer(),
  title: column.string(200).nullable(),
  body: column.text(),
  edited_by: column.uuid(),
});
export type Revision = DeclaredRow<typeof revisions>;

/** A comment on a post; `body` is sanitised HTML. */
export const comments = defineModel('comments', {
  id: column.uuid().primaryKey().defaultRandom(),
  post_id: column.uuid(),
  author_id: column.uuid(),
  body: column.text(),
});
export type Comment = DeclaredRow<typeof comments>;

/** One member's reaction with one emoji to a post. */
export const reactions = defineModel('reactions', {
  id: column.uuid().primaryKey().defaultRandom(),
  post_id: column.uuid(),
  member_id: column.uuid(),
  emoji: column.string(32),
});
export type Reaction = DeclaredRow<typeof reactions>;

/** A member's acknowledgement of an announcement. */
export const acknowledgements = defineModel('acknowledgements', {
  id: column.uuid().primaryKey().defaultRandom(),
  post_id: column.uuid(),
  member_id: column.uuid(),
});
export type Acknowledgement = DeclaredRow<typeof acknowledgements>;

/** Every model of the app, by the name services use in `ctx.db`. */
/** A post's poll: 2-20 options, a closing time, the votes per option (`counts[i]` for `options[i]`). */
export const polls = defineModel('polls', {
  id: column.uuid().primaryKey().defaultRandom(),
  post_id: column.uuid(),
  options: column.json<string[]>(),
  counts: column.json<number[]>(),
  closes_at: column.date(),
  hide_results: column.boolean().default(false),
  closed_at: column.date().nullable(),
});
export type Poll = DeclaredRow<typeof polls>;

/** A member's vote in a poll: the index of the option chosen. */
export const votes = defineModel('votes', {
  id: column.uuid().primaryKey().defaultRandom(),
  poll_id: column.uuid(),
  member_id: column.uuid(),
  option: column.integer(),
});
export type Vote = DeclaredRow<typeof votes>;

/** An admin's binding of a catalog action to a channel: the payload fields a card may show, and how. */
export const bindings = defineModel('bindings', {
  id: column.uuid().primaryKey().defaultRandom(),
  action: column.string(120),
  channel_id: column.uuid(),
  fields: column.json<string[]>(),
  title: column.string(200).nullable(),
  template: column.string(2000),
  created_by: column.uuid(),
});
export type Binding = DeclaredRow<typeof bindings>;

/** The card a binding made of one delivered event (unique per binding and event). */
export const cards = defineModel('cards', {
  id: column.uuid().primaryKey().defaultRandom(),
  binding_id: column.uuid(),
  event_id: column.string(200),
  post_id: column.uuid(),
});
export type Card = DeclaredRow<typeof cards>;

/** The app's copy of a worker (core.workers.worker.*): which member works in which department. */
export const workers = defineModel('workers', {
  id: column.uuid().primaryKey(),
  member_id: column.uuid().nullable(),
  department_id: column.uuid().nullable(),
  status: column.string(20),
  revision: column.integer(),
});
export type WorkerCopy = DeclaredRow<typeof workers>;

/** The app's copy of a department (core.workers.department.*): the tree department channels follow. */
export const departments = defineModel('departments', {
  id: column.uuid().primaryKey(),
  parent_id: column.uuid().nullable(),
  name: column.string(200),
  deleted: column.boolean().default(false),
  revision: column.integer(),
});
export type DepartmentCopy = DeclaredRow<typeof departments>;

export const models = { channels, posts, revisions, comments, reactions, acknowledgements, polls, votes, bindings, cards, workers, departments };

/** The models' type, for typing contexts: `AppContext<Models>`. */
export type Models = typeof models;
