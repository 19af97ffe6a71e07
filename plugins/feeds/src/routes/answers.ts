import { field, Joi, recordSchema, type JoiObjectSchema } from '@wpk/sdk';
import { CHANNEL_KINDS, PLATFORM_ROLES, POST_POLICIES, POST_STATUSES } from '../models/index.js';

/** A channel (services/present.ts). */
export const CHANNEL: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  name: Joi.string(),
  kind: Joi.string().valid(...CHANNEL_KINDS),
  department_mrn: Joi.string().pattern(/^mrn:workers:department:/).allow(null),
  description: Joi.string().allow(null),
  post_policy: Joi.string().valid(...POST_POLICIES),
  post_roles: Joi.array().items(Joi.string().valid(...PLATFORM_ROLES)),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('FeedsChannel');

/** The reactions to a post, by emoji in the order first used. */
const REACTIONS = Joi.array().items(recordSchema({ emoji: Joi.string(), count: Joi.number().integer().min(1), mine: Joi.boolean() }));

/** A post's poll as its readers see it (services/polls.ts): counts are null while hidden. */
const POLL_FIELDS = {
  options: Joi.array().items(recordSchema({ index: Joi.number().integer().min(0), label: Joi.string(), votes: Joi.number().integer().min(0).allow(null) })),
  total_votes: Joi.number().integer().min(0).allow(null).description('null while the results are hidden (an open poll with hide_results)'),
  closes_at: field.instant(),
  closed: Joi.boolean(),
  hide_results: Joi.boolean(),
  my_vote: Joi.number().integer().min(0).allow(null).description("The index of the caller's option, or null"),
};
const POLL: JoiObjectSchema = recordSchema(POLL_FIELDS).id('FeedsPoll');

/** The poll after the caller's vote. */
export const POLL_VOTE: JoiObjectSchema = recordSchema({ post_id: field.uuid(), ...POLL_FIELDS }).id('FeedsPollVote');

/** A post as its readers see it (services/present.ts). */
export const POST: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  mrn: Joi.string().pattern(/^mrn:feeds:post:/),
  channel_id: field.uuid(),
  author_id: field.uuid(),
  author_name: Joi.string().allow(null),
  title: Joi.string().allow(null),
  body: Joi.string().description('Sanitised HTML'),
  status: Joi.string().valid(...POST_STATUSES),
  requires_acknowledgement: Joi.boolean(),
  publish_at: field.instant().allow(null),
  published_at: field.instant().allow(null),
  removed_reason: Joi.string().allow(null),
  pinned: Joi.boolean(),
  pinned_until: field.instant().allow(null),
  revision: Joi.number().integer().min(1),
  reactions: REACTIONS,
  comment_count: Joi.number().integer().min(0),
  acknowledged: Joi.boolean().description('Whether the caller acknowledged it'),
  poll: POLL.allow(null),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('FeedsPost');

/** One revision of a post's text. */
export const REVISION: JoiObjectSchema = recordSchema({
  revision: Joi.number().integer().min(1),
  title: Joi.string().allow(null),
  body: Joi.string(),
  edited_by: field.uuid(),
  created_at: field.instant(),
}).id('FeedsRevision');

/** A comment. */
export const COMMENT: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  post_id: field.uuid(),
  author_id: field.uuid(),
  author_name: Joi.string().allow(null),
  body: Joi.string(),
  created_at: field.instant(),
}).id('FeedsComment');

/** A post's reactions after a PUT or DELETE of one. */
export const REACTION_SUMMARY: JoiObjectSchema = recordSchema({ post_id: field.uuid(), reactions: REACTIONS }).id('FeedsReactions');

/** The caller's acknowledgement. */
export const ACKNOWLEDGEMENT: JoiObjectSchema = recordSchema({ post_id: field.uuid(), member_id: field.uuid(), acknowledged_at: field.instant() }).id('FeedsAcknowledgement');

/** Who acknowledged an announcement and who has not. */
export const ACKNOWLEDGEMENTS: JoiObjectSchema = recordSchema({
  post_id: field.uuid(),
  acknowledged: Joi.array().items(recordSchema({ member_id: field.uuid(), name: Joi.string().allow(null), acknowledged_at: field.instant() })),
  pending: Joi.array().items(recordSchema({ member_id: field.uuid(), name: Joi.string() })),
}).id('FeedsAcknowledgements');

/** One keyset page of the timeline. */
export const TIMELINE: JoiObjectSchema = recordSchema({
  posts: Joi.array().items(POST),
  next_cursor: Joi.string().allow(null).description('Give it as after= for the next page; null on the last'),
}).id('FeedsTimeline');

/** What a delete answers: a post deleted for good (status null) or removed by a moderator (status removed). */
export const DELETED: JoiObjectSchema = recordSchema({ id: field.uuid(), deleted: Joi.boolean(), status: Joi.string().valid('removed').allow(null) }, { optional: ['status'] }).id('FeedsDeleted');

/** A binding of a catalog action to a channel (services/bindings.ts). */
export const BINDING: JoiObjectSchema = recordSchema({
  id: field.uuid(),
  action: Joi.string(),
  channel_id: field.uuid(),
  fields: Joi.array().items(Joi.string()),
  title: Joi.string().allow(null),
  template: Joi.string(),
  created_by: field.uuid(),
  created_at: field.instant(),
  updated_at: field.instant(),
}).id('FeedsBinding');

/** An action a channel may show as cards, with the fields it offers. */
export const BINDABLE_ACTION: JoiObjectSchema = recordSchema({ action: Joi.string(), label: Joi.string(), fields: Joi.array().items(Joi.string()) }).id('FeedsBindableAction');
