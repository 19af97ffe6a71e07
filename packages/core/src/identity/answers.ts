import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';

/**
 * The records identity's routes answer with (services/members.ts, roles.ts, workspace-admin.ts
 * present them), declared on the routes (`options.app.answers`) for the OpenAPI document, the
 * typed client and the tests' response checks.
 */

const uuid = () => Joi.string().guid();
const instant = () => Joi.date().iso();

export const MEMBER: ObjectSchema = recordSchema({
  id: uuid(),
  mrn: Joi.string().pattern(/^mrn:account:member:/),
  workspace_id: uuid(),
  account_id: uuid(),
  email: Joi.string().email({ tlds: false }),
  name: Joi.string().allow(''),
  initials: Joi.string().allow(''),
  avatar_url: Joi.string().allow(null),
  platform_role: Joi.string().valid('owner', 'admin', 'member'),
  state: Joi.string().valid('invited', 'joined'),
  role_ids: Joi.array().items(uuid()),
  deactivated_at: instant().allow(null),
  joined_at: instant().allow(null),
  created_at: instant(),
}).id('Member');

export const ROLE: ObjectSchema = recordSchema({
  id: uuid(),
  workspace_id: uuid(),
  name: Joi.string(),
  permissions: Joi.object().unknown(true).description('Permission keys granted, per app slug: {"tasks": ["tasks.tasks.read"]}'),
  member_count: Joi.number().integer().min(0),
  created_at: instant(),
  updated_at: instant(),
}).id('Role');

const WORKSPACE_FIELDS = {
  id: uuid(),
  subdomain: Joi.string(),
  name: Joi.string(),
  plan: Joi.string(),
  billing_interval: Joi.string().valid('monthly', 'annual'),
  status: Joi.string().valid('active', 'suspended', 'deleted'),
  created_at: instant(),
  updated_at: instant(),
};

export const WORKSPACE: ObjectSchema = recordSchema(WORKSPACE_FIELDS).id('Workspace');

/** The caller (GET /me, and the sign-in, sign-up and invitation answers that start a session). */
export const ME: ObjectSchema = recordSchema({
  member: MEMBER,
  workspace: WORKSPACE,
  platform_role: Joi.string().valid('owner', 'admin', 'member'),
  two_factor_enabled: Joi.boolean(),
  credential: Joi.string().valid('session', 'api_key').description('What the request was authenticated by'),
  elevated_until: instant().allow(null).description('Until when the session is elevated (admin mode); null when it is not'),
}).id('Me');

export const WORKSPACE_DETAIL: ObjectSchema = recordSchema({
  ...WORKSPACE_FIELDS,
  owner_member_id: uuid().allow(null),
  member_count: Joi.number().integer().min(0),
}).id('WorkspaceDetail');

/** `GET /me/workspaces`: a workspace the caller's account is a joined, active member of. */
export const MY_WORKSPACE: ObjectSchema = recordSchema({
  id: uuid(),
  subdomain: Joi.string(),
  name: Joi.string(),
  url: Joi.string().uri().description("The workspace's address"),
  platform_role: Joi.string().valid('owner', 'admin', 'member'),
  current: Joi.boolean().description('The workspace this request was made on'),
}).id('MyWorkspace');
