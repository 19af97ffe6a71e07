import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { CHANNEL_KINDS, PLATFORM_ROLES, POST_POLICIES, POST_STATUSES } from '../models/index.js';
import { createChannel, deleteChannel, listChannels, updateChannel } from '../services/channels.js';
import { acknowledge, acknowledgements, createComment, deleteComment, listComments, pin, react, timeline, unpin } from '../services/engagement.js';
import { presentChannel, presentComment, presentRevision } from '../services/present.js';
import { createPost, deletePost, listChannelPosts, listRevisions, presentOne, presentPosts, requireVisiblePost, updatePost } from '../services/posts.js';
import { ACKNOWLEDGEMENT, ACKNOWLEDGEMENTS, CHANNEL, COMMENT, DELETED, POST, REACTION_SUMMARY, REVISION, TIMELINE } from './answers.js';

const pageQuery = { page: Joi.any(), per_page: Joi.any() };
const channelParams = Joi.idParams('channel_id');
const postParams = Joi.idParams('post_id');
const richText = () => Joi.string().min(1).max(50_000);

const channelFields = {
  name: Joi.string().trim().min(1).max(200),
  kind: Joi.string().valid(...CHANNEL_KINDS),
  department_mrn: Joi.string().trim().max(100).allow('', null),
  description: Joi.string().trim().max(1000).allow('', null),
  post_policy: Joi.string().valid(...POST_POLICIES),
  post_roles: Joi.array().items(Joi.string().valid(...PLATFORM_ROLES)).max(PLATFORM_ROLES.length),
};

const postFields = {
  title: Joi.string().trim().max(200).allow('', null),
  body: richText(),
  requires_acknowledgement: Joi.boolean(),
  status: Joi.string().valid(...POST_STATUSES),
  publish_at: Joi.instant().allow(null),
};

/** Channels. */
const channelRoutes = [
  route({
    method: 'GET',
    path: '/feeds/channels',
    chain: ['feeds.channels.read'],
    answers: { collection: CHANNEL },
    description: 'Lists channels by name; q matches the name, kind keeps one kind',
    validate: { query: Joi.object({ q: Joi.string().max(200).allow(''), kind: Joi.string().valid(...CHANNEL_KINDS), ...pageQuery }) },
    async handler(request, ctx) {
      const { rows, count } = await listChannels(ctx, request.query.q as string | undefined, request.query.kind as never);
      return ctx.respond.collection(rows.map(presentChannel), count);
    },
  }),
  route({
    method: 'POST',
    path: '/feeds/channels',
    chain: ['feeds.channels.create'],
    answers: { single: CHANNEL },
    description: 'Creates a channel (company, department with its department_mrn, or topic) and who may post in it',
    validate: { payload: Joi.object({ ...channelFields, name: channelFields.name.required(), kind: channelFields.kind.required() }) },
    async handler(request, ctx) {
      const channel = await createChannel(ctx, request.payload);
      return ctx.respond.single(presentChannel(channel), { self: `/feeds/channels/${channel.id}` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/feeds/channels/{channel_id}',
    chain: ['feeds.channels.edit'],
    answers: { single: CHANNEL },
    description: 'Changes the given fields of a channel',
    validate: { params: channelParams, payload: Joi.object(channelFields) },
    async handler(request, ctx) {
      const channel = await updateChannel(ctx, request.params.channel_id, request.payload);
      return ctx.respond.single(presentChannel(channel), { self: `/feeds/channels/${channel.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/feeds/channels/{channel_id}',
    chain: ['feeds.channels.delete'],
    answers: { single: DELETED },
    description: 'Deletes a channel without posts',
    validate: { params: channelParams },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteChannel(ctx, request.params.channel_id));
    },
  }),
];

/** Posts. */
const postRoutes = [
  route({
    method: 'GET',
    path: '/feeds/channels/{channel_id}/posts',
    chain: ['feeds.posts.read'],
    answers: { collection: POST },
    description: "Lists a channel's posts the caller sees, newest first (published and archived ones, the caller's own drafts and scheduled ones, removed ones for moderators); status keeps one state",
    validate: { params: channelParams, query: Joi.object({ status: Joi.string().valid(...POST_STATUSES), ...pageQuery }) },
    async handler(request, ctx) {
      const { rows, count } = await listChannelPosts(ctx, request.params.channel_id, request.query.status as never);
      return ctx.respond.collection(await presentPosts(ctx, rows), count);
    },
  }),
  route({
    method: 'POST',
    path: '/feeds/channels/{channel_id}/posts',
    chain: ['feeds.posts.create'],
    answers: { single: POST },
    description: 'Writes a post where the channel lets the caller post: published at once (default), a draft, or scheduled for publish_at; body is HTML, sanitised',
    validate: { params: channelParams, payload: Joi.object({ ...postFields, body: richText().required() }) },
    async handler(request, ctx) {
      const post = await createPost(ctx, request.params.channel_id, request.payload);
      return ctx.respond.single(await presentOne(ctx, post), { self: `/feeds/posts/${post.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/feeds/posts/{post_id}',
    chain: ['feeds.posts.read'],
    answers: { single: POST },
    description: 'Reads a post the caller sees',
    validate: { params: postParams },
    async handler(request, ctx) {
      const post = await requireVisiblePost(ctx, request.params.post_id);
      return ctx.respond.single(await presentOne(ctx, post), { self: `/feeds/posts/${post.id}` });
    },
  }),
  route({
    method: 'PATCH',
    path: '/feeds/posts/{post_id}',
    chain: ['feeds.posts.edit'],
    answers: { single: POST },
    description: "Changes the caller's own post: title and body (a new revision), status (draft, scheduled, published, archived), publish_at, requires_acknowledgement (before publication)",
    validate: { params: postParams, payload: Joi.object(postFields) },
    async handler(request, ctx) {
      const post = await updatePost(ctx, request.params.post_id, request.payload);
      return ctx.respond.single(await presentOne(ctx, post), { self: `/feeds/posts/${post.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/feeds/posts/{post_id}',
    chain: ['feeds.posts.delete'],
    answers: { single: DELETED },
    description: 'Deletes the caller\'s own draft or scheduled post; a moderator removes a published or archived one with reason= (it stays, removed)',
    validate: { params: postParams, query: Joi.object({ reason: Joi.string().trim().min(1).max(500) }) },
    async handler(request, ctx) {
      return ctx.respond.single(await deletePost(ctx, request.params.post_id, request.query.reason as string | undefined));
    },
  }),
  route({
    method: 'GET',
    path: '/feeds/posts/{post_id}/revisions',
    chain: ['feeds.posts.read'],
    answers: { collection: REVISION },
    description: "Lists a post's revisions, oldest first",
    validate: { params: postParams, query: Joi.object(pageQuery) },
    async handler(request, ctx) {
      const { rows, count } = await listRevisions(ctx, request.params.post_id);
      return ctx.respond.collection(rows.map(presentRevision), count);
    },
  }),
];

/** Comments and reactions. */
const engagementRoutes = [
  route({
    method: 'GET',
    path: '/feeds/posts/{post_id}/comments',
    chain: ['feeds.posts.read'],
    answers: { collection: COMMENT },
    description: "Lists a post's comments, oldest first",
    validate: { params: postParams, query: Joi.object(pageQuery) },
    async handler(request, ctx) {
      const { rows, count } = await listComments(ctx, request.params.post_id);
      return ctx.respond.collection(rows.map(({ comment, author }) => presentComment(comment, author)), count);
    },
  }),
  route({
    method: 'POST',
    path: '/feeds/posts/{post_id}/comments',
    chain: ['feeds.comments.create'],
    answers: { single: COMMENT },
    description: 'Comments on a published post (body is HTML, sanitised); emits comment.created',
    validate: { params: postParams, payload: Joi.object({ body: richText().required() }) },
    async handler(request, ctx) {
      const comment = await createComment(ctx, request.params.post_id, request.payload.body);
      return ctx.respond.single(presentComment(comment, ctx.member.name), { self: `/feeds/posts/${comment.post_id}/comments` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/feeds/comments/{comment_id}',
    chain: ['feeds.comments.delete'],
    answers: { single: DELETED },
    description: 'Deletes a comment: its author, or a moderator',
    validate: { params: Joi.idParams('comment_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteComment(ctx, request.params.comment_id));
    },
  }),
  route({
    method: 'PUT',
    path: '/feeds/posts/{post_id}/reactions/{emoji}',
    chain: ['feeds.reactions.edit'],
    answers: { single: REACTION_SUMMARY },
    description: "Adds the caller's reaction with an emoji (or a short code) to a published post; again changes nothing",
    validate: { params: Joi.object({ post_id: Joi.string().required(), emoji: Joi.string().min(1).max(64).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await react(ctx, request.params.post_id, request.params.emoji, true));
    },
  }),
  route({
    method: 'DELETE',
    path: '/feeds/posts/{post_id}/reactions/{emoji}',
    chain: ['feeds.reactions.edit'],
    answers: { single: REACTION_SUMMARY },
    description: "Takes back the caller's reaction with an emoji; one they never gave changes nothing",
    validate: { params: Joi.object({ post_id: Joi.string().required(), emoji: Joi.string().min(1).max(64).required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await react(ctx, request.params.post_id, request.params.emoji, false));
    },
  }),
];

/** Announcements, pins and the timeline. */
const announcementRoutes = [
  route({
    method: 'PUT',
    path: '/feeds/posts/{post_id}/acknowledgement',
    chain: ['feeds.acknowledgements.create'],
    answers: { single: ACKNOWLEDGEMENT },
    description: 'The caller acknowledges an announcement; the first time emits announcement.acknowledged',
    validate: { params: postParams },
    async handler(request, ctx) {
      return ctx.respond.single(await acknowledge(ctx, request.params.post_id));
    },
  }),
  route({
    method: 'GET',
    path: '/feeds/posts/{post_id}/acknowledgements',
    chain: ['feeds.acknowledgements.read'],
    answers: { single: ACKNOWLEDGEMENTS },
    description: 'Who acknowledged an announcement and which active members have not (its author and admins)',
    validate: { params: postParams },
    async handler(request, ctx) {
      return ctx.respond.single(await acknowledgements(ctx, request.params.post_id));
    },
  }),
  route({
    method: 'PUT',
    path: '/feeds/posts/{post_id}/pin',
    chain: ['feeds.pins.edit'],
    answers: { single: POST },
    description: 'Pins a published post until until= (default: the default_pin_days setting from now)',
    validate: { params: postParams, payload: Joi.object({ until: Joi.instant() }).allow(null) },
    async handler(request, ctx) {
      const post = await pin(ctx, request.params.post_id, (request.payload as { until?: string } | null)?.until);
      return ctx.respond.single(await presentOne(ctx, post), { self: `/feeds/posts/${post.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/feeds/posts/{post_id}/pin',
    chain: ['feeds.pins.edit'],
    answers: { single: POST },
    description: "Takes a post's pin off",
    validate: { params: postParams },
    async handler(request, ctx) {
      const post = await unpin(ctx, request.params.post_id);
      return ctx.respond.single(await presentOne(ctx, post), { self: `/feeds/posts/${post.id}` });
    },
  }),
  route({
    method: 'GET',
    path: '/feeds/timeline',
    chain: ['feeds.posts.read'],
    answers: { single: TIMELINE },
    description: 'Published posts of every channel, pinned ones first, then newest first, in keyset pages (after= the previous next_cursor; limit 1-100, default 20; channel_id keeps one channel)',
    validate: { query: Joi.object({ after: Joi.string().max(200), limit: Joi.number().integer().min(1).max(100).default(20), channel_id: Joi.id() }) },
    async handler(request, ctx) {
      const query = request.query as { after?: string; limit: number; channel_id?: string };
      const page = await timeline(ctx, query);
      const presented = await presentPosts(ctx, [...page.pinned, ...page.rows]);
      return ctx.respond.single({ posts: presented, next_cursor: page.next_cursor }, { self: '/feeds/timeline' });
    },
  }),
];

/** Every route of the Feeds app. */
export const routes = [...channelRoutes, ...postRoutes, ...engagementRoutes, ...announcementRoutes];
