import { Joi } from '@wpk/sdk';
import { route, routeFamily, type FeedsContext } from '../kit.js';
import { CHANNEL_KINDS, PLATFORM_ROLES, POST_POLICIES, POST_STATUSES, type Binding, type Comment, type Post } from '../models/index.js';
import { bindableActions, BINDABLE, createBinding, deleteBinding, listBindings } from '../services/bindings.js';
import { createChannel, deleteChannel, listChannels, updateChannel } from '../services/channels.js';
import { acknowledge, acknowledgements, createComment, deleteComment, listComments, pin, react, timeline, unpin } from '../services/engagement.js';
import { presentChannel, presentComment, presentRevision } from '../services/present.js';
import { createPost, deletePost, listChannelPosts, listRevisions, presentOne, presentPosts, requireVisiblePost, updatePost, voteOn } from '../services/posts.js';
import { ACKNOWLEDGEMENT, ACKNOWLEDGEMENTS, BINDABLE_ACTION, BINDING, CHANNEL, COMMENT, DELETED, POLL_VOTE, POST, REACTION_SUMMARY, REVISION, TIMELINE } from './answers.js';

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
  poll: Joi.object({
    options: Joi.array().items(Joi.string().trim().min(1).max(200)).min(2).max(20).required(),
    closes_at: Joi.instant().required(),
    hide_results: Joi.boolean(),
  }).allow(null),
};

const channels = routeFamily('/feeds/channels', { record: CHANNEL, present: presentChannel, links: (channel) => ({ self: `/feeds/channels/${channel.id}` }) });
const channel = channels.at('/{channel_id}', { params: channelParams });

/** A post as every route answering one presents it, linked to itself. */
const postPath = '/feeds/posts/{post_id}';
const postSpec = { record: POST, present: (post: Post, ctx: FeedsContext) => presentOne(ctx, post), links: (post: Post) => ({ self: `/feeds/posts/${post.id}` }) };
const channelPosts = channel.at('/posts', postSpec);
const post = routeFamily(postPath, { params: postParams, ...postSpec });
const comments = post.at('/comments', { record: COMMENT, present: (comment: Comment, ctx) => presentComment(comment, ctx.member.name), links: (comment) => ({ self: `/feeds/posts/${comment.post_id}/comments` }) });
const reactions = routeFamily(`${postPath}/reactions/{emoji}`, { params: Joi.object({ post_id: Joi.string().required(), emoji: Joi.string().min(1).max(64).required() }), record: REACTION_SUMMARY });

/** Channels. */
const channelRoutes = [
  channels.list({
    chain: ['feeds.channels.read'],
    description: 'Lists channels by name; q matches the name, kind keeps one kind',
    query: Joi.object({ q: Joi.string().max(200).allow(''), kind: Joi.string().valid(...CHANNEL_KINDS), ...pageQuery }),
    run: (request, ctx) => listChannels(ctx, request.query.q as string | undefined, request.query.kind as never),
  }),
  channels.post({
    chain: ['feeds.channels.create'],
    description: 'Creates a channel (company, department with its department_mrn, or topic) and who may post in it',
    payload: Joi.object({ ...channelFields, name: channelFields.name.required(), kind: channelFields.kind.required() }),
    run: (request, ctx) => createChannel(ctx, request.payload),
  }),
  channel.patch({
    chain: ['feeds.channels.edit'],
    description: 'Changes the given fields of a channel',
    payload: Joi.object(channelFields),
    run: (request, ctx) => updateChannel(ctx, request.params.channel_id, request.payload),
  }),
  channel.delete({
    chain: ['feeds.channels.delete'],
    answers: { single: DELETED },
    description: 'Deletes a channel without posts',
    run: (request, ctx) => deleteChannel(ctx, request.params.channel_id),
  }),
];

/** Posts. */
const postRoutes = [
  channelPosts.list({
    chain: ['feeds.posts.read'],
    description: "Lists a channel's posts the caller sees, newest first (published and archived ones, the caller's own drafts and scheduled ones, removed ones for moderators); status keeps one state",
    query: Joi.object({ status: Joi.string().valid(...POST_STATUSES), ...pageQuery }),
    async handler(request, ctx) {
      // Presented in one batch, not post by post.
      const { rows, count } = await listChannelPosts(ctx, request.params.channel_id, request.query.status as never);
      return ctx.respond.collection(await presentPosts(ctx, rows), count);
    },
  }),
  channelPosts.post({
    chain: ['feeds.posts.create'],
    description: 'Writes a post where the channel lets the caller post: published at once (default), a draft, or scheduled for publish_at; body is HTML, sanitised; poll adds a poll (2-20 options, closes_at, hide_results)',
    payload: Joi.object({ ...postFields, body: richText().required() }),
    run: (request, ctx) => createPost(ctx, request.params.channel_id, request.payload),
  }),
  post.get({
    chain: ['feeds.posts.read'],
    description: 'Reads a post the caller sees',
    run: (request, ctx) => requireVisiblePost(ctx, request.params.post_id),
  }),
  post.patch({
    chain: ['feeds.posts.edit'],
    description: "Changes the caller's own post: title and body (a new revision), status (draft, scheduled, published, archived), publish_at, requires_acknowledgement and poll (before publication)",
    payload: Joi.object(postFields),
    run: (request, ctx) => updatePost(ctx, request.params.post_id, request.payload),
  }),
  post.delete({
    chain: ['feeds.posts.delete'],
    answers: { single: DELETED },
    description: 'Deletes the caller\'s own draft or scheduled post; a moderator removes a published or archived one with reason= (it stays, removed)',
    query: Joi.object({ reason: Joi.string().trim().min(1).max(500) }),
    run: (request, ctx) => deletePost(ctx, request.params.post_id, request.query.reason as string | undefined),
  }),
  post.at('/revisions', { record: REVISION, present: presentRevision }).list({
    chain: ['feeds.posts.read'],
    description: "Lists a post's revisions, oldest first",
    query: Joi.object(pageQuery),
    run: (request, ctx) => listRevisions(ctx, request.params.post_id),
  }),
];

/** Comments and reactions. */
const engagementRoutes = [
  comments.list({
    chain: ['feeds.posts.read'],
    description: "Lists a post's comments, oldest first",
    query: Joi.object(pageQuery),
    async handler(request, ctx) {
      const { rows, count } = await listComments(ctx, request.params.post_id);
      return ctx.respond.collection(rows.map(({ comment, author }) => presentComment(comment, author)), count);
    },
  }),
  comments.post({
    chain: ['feeds.comments.create'],
    description: 'Comments on a published post (body is HTML, sanitised); emits comment.created',
    payload: Joi.object({ body: richText().required() }),
    run: (request, ctx) => createComment(ctx, request.params.post_id, request.payload.body),
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
  reactions.put({
    chain: ['feeds.reactions.edit'],
    description: "Adds the caller's reaction with an emoji (or a short code) to a published post; again changes nothing",
    run: (request, ctx) => react(ctx, request.params.post_id, request.params.emoji, true),
  }),
  reactions.delete({
    chain: ['feeds.reactions.edit'],
    description: "Takes back the caller's reaction with an emoji; one they never gave changes nothing",
    run: (request, ctx) => react(ctx, request.params.post_id, request.params.emoji, false),
  }),
];

/** Announcements, pins and the timeline. */
const announcementRoutes = [
  routeFamily(`${postPath}/acknowledgement`, { params: postParams, record: ACKNOWLEDGEMENT }).put({
    chain: ['feeds.acknowledgements.create'],
    description: 'The caller acknowledges an announcement; the first time emits announcement.acknowledged',
    run: (request, ctx) => acknowledge(ctx, request.params.post_id),
  }),
  routeFamily(`${postPath}/acknowledgements`, { params: postParams, record: ACKNOWLEDGEMENTS }).get({
    chain: ['feeds.acknowledgements.read'],
    description: 'Who acknowledged an announcement and which active members have not (its author and admins)',
    run: (request, ctx) => acknowledgements(ctx, request.params.post_id),
  }),
  routeFamily(`${postPath}/vote`, { params: postParams, record: POLL_VOTE }).put({
    chain: ['feeds.votes.create'],
    description: "The caller votes for option (its index) in a published post's open poll, or moves their vote there; answers the poll",
    payload: Joi.object({ option: Joi.number().integer().min(0).required() }),
    run: (request, ctx) => voteOn(ctx, request.params.post_id, request.payload.option),
  }),
  post.at('/pin').put({
    chain: ['feeds.pins.edit'],
    description: 'Pins a published post until until= (default: the default_pin_days setting from now)',
    payload: Joi.object({ until: Joi.instant() }).allow(null),
    run: (request, ctx) => pin(ctx, request.params.post_id, (request.payload as { until?: string } | null)?.until),
  }),
  post.at('/pin').delete({
    chain: ['feeds.pins.edit'],
    description: "Takes a post's pin off",
    run: (request, ctx) => unpin(ctx, request.params.post_id),
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

/** A binding as answers present it. */
const presentBinding = (binding: Binding) => ({ id: binding.id, action: binding.action, channel_id: binding.channel_id, fields: binding.fields, title: binding.title, template: binding.template, created_by: binding.created_by, created_at: binding.created_at, updated_at: binding.updated_at });
const bindings = routeFamily('/feeds/bindings', { record: BINDING, present: presentBinding, links: () => ({ self: '/feeds/bindings' }) });

/** Event cards by consent. */
const bindingRoutes = [
  routeFamily('/feeds/bindable-actions', { record: BINDABLE_ACTION }).list({
    chain: ['feeds.bindings.read'],
    description: 'Lists the catalog actions a channel can show as cards, with the payload fields each offers',
    query: Joi.object(pageQuery),
    async handler(_request, ctx) {
      const all = bindableActions();
      return ctx.respond.collection(all, all.length);
    },
  }),
  bindings.list({
    chain: ['feeds.bindings.read'],
    description: 'Lists the bindings of catalog actions to channels, oldest first',
    query: Joi.object(pageQuery),
    run: (_request, ctx) => listBindings(ctx),
  }),
  bindings.post({
    chain: ['feeds.bindings.create'],
    description: 'Binds a catalog action to a channel: each such event becomes a published card showing only the chosen fields through the template ({field} placeholders)',
    payload: Joi.object({
      action: Joi.string().valid(...Object.keys(BINDABLE)).required(),
      channel_id: Joi.id().required(),
      fields: Joi.array().items(Joi.string().max(60)).min(1).max(20).required(),
      title: Joi.string().trim().max(200).allow('', null),
      template: Joi.string().trim().min(1).max(2000).required(),
    }),
    run: (request, ctx) => createBinding(ctx, request.payload),
  }),
  bindings.at('/{binding_id}', { params: Joi.idParams('binding_id') }).delete({
    chain: ['feeds.bindings.delete'],
    answers: { single: DELETED },
    description: 'Removes a binding: no more cards from it (the cards made stay)',
    run: (request, ctx) => deleteBinding(ctx, request.params.binding_id),
  }),
];

/** Every route of the Feeds app. */
export const routes = [...channelRoutes, ...postRoutes, ...engagementRoutes, ...announcementRoutes, ...bindingRoutes];
