import type { Request, ServerRoute } from '@hapi/hapi';
import { Joi } from '@wpk/sdk';
import type { Sequelize } from 'sequelize';
import { requireRole } from '../access/index.js';
import { collection, parsePagination, single } from '../server/index.js';
import type { ApiKeyService, CreateKeyInput, RotateKeyInput, UpdateKeyInput } from './service.js';
import { API_KEY, API_KEY_WITH_SECRET, DELETED_API_KEY } from './answers.js';

const name = Joi.string().trim().min(1).max(100);
const scopes = Joi.array().items(Joi.string().trim().min(1).max(200)).max(500);
const expiresAt = Joi.instant().trim();
// Ids are strings: an id of any shape is looked up, and an unknown one answers 404.
const keyIdParams = Joi.object({ key_id: Joi.id().required() });
// A flag is "boolean-like": JSON booleans, and the strings "true"/"false".
const flag = Joi.boolean().truthy('true').falsy('false');

const MANAGE = 'manage API keys';

/** The key-management endpoints of the specification; every one is admin-gated (layer 3). */
export function apiKeyRoutes(keys: ApiKeyService, sequelize: Sequelize): ServerRoute[] {
  const admin = (request: Request) => requireRole(request, 'admin', MANAGE);
  const workspaceId = (request: Request) => request.app.workspace!.id;
  const keyId = (request: Request) => request.params.key_id as string;
  const keyLink = (id: string) => `/api-keys/${id}`;
  return [
    {
      method: 'GET',
      path: '/api-keys',
      options: { app: { answers: { collection: API_KEY }, platformAccess: 'full-access' } },
      handler: async (request) => {
        admin(request);
        const page = parsePagination(request.query);
        const { rows, total } = await keys.list(workspaceId(request), page);
        return collection(request, rows, total, page);
      },
    },
    {
      method: 'GET',
      path: '/api-keys/{key_id}',
      options: { app: { answers: { single: API_KEY }, platformAccess: 'full-access' }, validate: { params: keyIdParams } },
      handler: async (request) => {
        admin(request);
        return single(request, await keys.get(workspaceId(request), keyId(request)));
      },
    },
    {
      method: 'POST',
      path: '/api-keys',
      options: {
        app: { answers: { single: API_KEY_WITH_SECRET }, platformAccess: 'full-access' },
        validate: {
          payload: Joi.object({ name: name.required(), full_access: flag, scopes, expires_at: expiresAt, member_id: Joi.id().trim() }).required(),
        },
      },
      handler: async (request) => {
        const actor = admin(request);
        const { key, secret } = await sequelize.transaction(() => keys.create(workspaceId(request), actor, request.payload as CreateKeyInput));
        return single(request, { ...key, secret }, { self: keyLink(key.id) });
      },
    },
    {
      method: 'PUT',
      path: '/api-keys/{key_id}',
      options: {
        app: { answers: { single: API_KEY }, platformAccess: 'full-access' },
        validate: {
          params: keyIdParams,
          payload: Joi.object({ name, full_access: flag, scopes, status: Joi.string().valid('active', 'revoked'), expires_at: expiresAt, never_expires: flag }).required(),
        },
      },
      handler: async (request) => {
        const actor = admin(request);
        const key = await sequelize.transaction(() => keys.update(workspaceId(request), actor, keyId(request), request.payload as UpdateKeyInput));
        return single(request, key, { self: keyLink(key.id) });
      },
    },
    {
      method: 'PUT',
      path: '/api-keys/{key_id}/secret',
      options: {
        app: { answers: { single: API_KEY_WITH_SECRET }, platformAccess: 'full-access' },
        validate: { params: keyIdParams, payload: Joi.object({ expires_at: expiresAt, never_expires: flag }).allow(null) },
      },
      handler: async (request) => {
        const actor = admin(request);
        const { key, secret } = await sequelize.transaction(() => keys.rotate(workspaceId(request), actor, keyId(request), (request.payload ?? {}) as RotateKeyInput));
        return single(request, { ...key, secret }, { self: keyLink(key.id) });
      },
    },
    {
      method: 'DELETE',
      path: '/api-keys/{key_id}',
      options: { app: { answers: { single: DELETED_API_KEY }, platformAccess: 'full-access' }, validate: { params: keyIdParams } },
      handler: async (request) => {
        const actor = admin(request);
        await sequelize.transaction(() => keys.remove(workspaceId(request), actor, keyId(request)));
        // The single envelope like every answer; `self` names what was deleted.
        return single(request, { id: keyId(request), deleted: true });
      },
    },
  ];
}
