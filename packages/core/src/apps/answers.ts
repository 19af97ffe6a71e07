import { Joi, recordSchema } from '@wpk/sdk';
import type { ObjectSchema } from 'joi';

/** The records the platform's app endpoints answer with (routes.ts presents them). */

const uuid = () => Joi.string().guid();
const instant = () => Joi.date().iso();
const POLICY = Joi.string().valid('everyone', 'roles', 'approval');

const INSTALLATION_FIELDS = {
  slug: Joi.string(),
  name: Joi.string(),
  version: Joi.string(),
  first_party: Joi.boolean(),
  status: Joi.string().valid('installed', 'uninstalled', 'not_installed'),
  installed: Joi.boolean(),
  access_policy: POLICY.allow(null),
  allowed_roles: Joi.array().items(Joi.string()),
  redlist: Joi.array().items(Joi.string()),
  installed_at: instant().allow(null),
  installed_by: uuid().allow(null),
  uninstalled_at: instant().allow(null),
};

/** An app's installation in the workspace (`not_installed` before the first one). */
export const APP_INSTALLATION: ObjectSchema = recordSchema(INSTALLATION_FIELDS).id('AppInstallation');

/** `GET /applications/{slug}/status`: the installation and whether the caller can open the app (layer 4). */
export const APP_STATUS: ObjectSchema = recordSchema({ ...INSTALLATION_FIELDS, can_open: Joi.boolean() }).id('AppStatus');

/** An install or access request (`POST /applications/{slug}/requests`, `.../access-requests`). */
export const APP_INSTALL_REQUEST: ObjectSchema = recordSchema({
  id: uuid(),
  kind: Joi.string().valid('install'),
  app_slug: Joi.string(),
  member_id: uuid(),
  notified: Joi.number().integer().min(0).description('How many owners and admins were notified'),
  created_at: instant(),
}).id('AppInstallRequest');

export const APP_ACCESS_REQUEST: ObjectSchema = recordSchema({
  id: uuid(),
  kind: Joi.string().valid('access'),
  app_slug: Joi.string(),
  member_id: uuid(),
  message: Joi.string().allow(null),
  notified: Joi.number().integer().min(0).description('How many owners and admins were notified'),
  created_at: instant(),
}).id('AppAccessRequest');

const PERMISSION = recordSchema({ key: Joi.string(), label: Joi.string(), category: Joi.string() });

/** `GET /apps/{slug}/access`: who can open the app and with which permissions (`account`: the platform's keys). */
export const APP_ACCESS_OVERVIEW: ObjectSchema = recordSchema({
  app: recordSchema({
    slug: Joi.string(),
    name: Joi.string(),
    version: Joi.string().allow(null),
    tile: Joi.object().unknown(true).allow(null),
    meters: Joi.array().items(recordSchema({ name: Joi.string(), description: Joi.string() })).description("The meters the app bills usage on (its manifest's meters; ctx.usage.record): the platform bills their microns on the workspace's usage invoice"),
    platform_requests: Joi.boolean().description("Whether the app calls the workspace's API as the member it acts for (its manifest's platform_requests; ctx.platform.request): within the scopes it names, never beyond that member's own permissions"),
  }),
  tile_access: recordSchema({
    installed: Joi.boolean(),
    status: Joi.string().valid('installed', 'uninstalled', 'not_installed'),
    access_policy: POLICY.allow(null),
    allowed_roles: Joi.array().items(recordSchema({ id: uuid(), name: Joi.string() })),
    redlist: Joi.array().items(Joi.string()),
  }),
  permission_matrix: recordSchema({
    permissions: Joi.array().items(PERMISSION),
    roles: Joi.array().items(
      recordSchema({
        id: uuid(),
        name: Joi.string(),
        can_open: Joi.boolean(),
        wildcard: Joi.boolean(),
        granted: Joi.array().items(Joi.string()),
        permissions: Joi.array().items(Joi.string()),
      }),
    ),
  }),
  config: recordSchema({
    schema: Joi.object().unknown(true).allow(null),
    defaults: Joi.object().unknown(true).allow(null),
    document: Joi.object().unknown(true).allow(null),
  }),
  exception_grants: Joi.array().items(recordSchema({ member_id: uuid(), name: Joi.string().allow(''), email: Joi.string(), platform_role: Joi.string().valid('owner', 'admin'), reason: Joi.string() })),
}).id('AppAccessOverview');

/** An app's settings document (its own schema decides the fields). */
export const APP_SETTINGS: ObjectSchema = Joi.object().unknown(true).description("The app's settings document, shaped by its settings schema").id('AppSettings');

/** `PUT /apps/{slug}/roles/{role_id}/permissions`: the role's keys of that app after the change. */
export const ROLE_APP_PERMISSIONS: ObjectSchema = recordSchema({
  role_id: uuid(),
  role_name: Joi.string(),
  app_slug: Joi.string(),
  permissions: Joi.array().items(Joi.string()),
}).id('RoleAppPermissions');
