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
  credential: Joi.string().valid('session', 'api_key', 'app_token', 'app_grant').description('What the request was authenticated by (app_grant: an app acting for the member, ctx.platform.request)'),
  elevated_until: instant().allow(null).description('Until when the session is elevated (admin mode); null when it is not'),
}).id('Me');

export const WORKSPACE_DETAIL: ObjectSchema = recordSchema({
  ...WORKSPACE_FIELDS,
  owner_member_id: uuid().allow(null),
  member_count: Joi.number().integer().min(0),
}).id('WorkspaceDetail');

/** `GET /me/workspaces` (browser sessions only, never an API key): a workspace the caller's account is a joined, active member of. */
export const MY_WORKSPACE: ObjectSchema = recordSchema({
  id: uuid(),
  subdomain: Joi.string(),
  name: Joi.string(),
  url: Joi.string().uri().description("The workspace's address"),
  platform_role: Joi.string().valid('owner', 'admin', 'member'),
  current: Joi.boolean().description('The workspace this request was made on'),
}).id('MyWorkspace');

/** `POST /invitations`: the invited member and when the invitation lapses. */
export const INVITED_MEMBER: ObjectSchema = MEMBER.keys({ invitation_expires_at: instant().required() }).id('InvitedMember');

/** One entry of the activity trail (`GET /activity`). */
export const ACTIVITY_ENTRY: ObjectSchema = recordSchema({
  id: uuid(),
  occurred_at: instant(),
  actor_member_id: uuid().allow(null),
  actor_email: Joi.string().allow(null),
  action: Joi.string(),
  target_type: Joi.string().allow(null),
  target_id: Joi.string().allow(null),
  details: Joi.object().unknown(true),
  ip: Joi.string().allow(null),
}).id('ActivityEntry');

/** One entry of the admin audit (`GET /admin-audit`): repeated views are folded into one with `hits`. */
export const ADMIN_AUDIT_ENTRY: ObjectSchema = recordSchema({
  id: uuid(),
  actor_member_id: uuid(),
  actor_email: Joi.string().allow(null),
  kind: Joi.string().valid('elevation', 'view', 'change'),
  action: Joi.string(),
  target: Joi.string().allow(''),
  reason: Joi.string().allow(null),
  status: Joi.number().integer().allow(null),
  hits: Joi.number().integer().min(1),
  first_at: instant(),
  last_at: instant(),
}).id('AdminAuditEntry');

/** `DELETE /sessions`. */
export const SIGNED_OUT: ObjectSchema = recordSchema({ signed_out: Joi.boolean().valid(true) }).id('SignedOut');

/** `POST /totps`: the secret to enrol an authenticator with. */
export const TOTP_ENROLLMENT: ObjectSchema = recordSchema({
  secret: Joi.string().description('Base32'),
  otpauth_uri: Joi.string(),
  digits: Joi.number().integer().valid(6),
  period: Joi.number().integer().valid(30),
  algorithm: Joi.string().valid('SHA1'),
}).id('TotpEnrollment');

/** `PUT /totps` (the recovery codes are shown this once) and `DELETE /totps`. */
export const TOTP_ENABLED: ObjectSchema = recordSchema({ enabled: Joi.boolean().valid(true), recovery_codes: Joi.array().items(Joi.string()) }).id('TotpEnabled');
export const TOTP_DISABLED: ObjectSchema = recordSchema({ enabled: Joi.boolean().valid(false) }).id('TotpDisabled');

/** `POST /elevations`: admin mode until then, and what proved it. */
export const ELEVATION: ObjectSchema = recordSchema({ elevated_until: instant(), proof: Joi.string() }).id('Elevation');

/** `POST /signup`: the code went to this address. */
export const SIGNUP: ObjectSchema = recordSchema({ email: Joi.string(), subdomain: Joi.string(), expires_at: instant() }).id('Signup');

/** `POST /password-resets` and `PUT /password-resets/{token}`: a fixed message (it never says whether the address exists). */
export const NOTICE: ObjectSchema = recordSchema({ message: Joi.string() }).id('Notice');
