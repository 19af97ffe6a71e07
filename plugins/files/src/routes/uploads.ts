import { Joi } from '@wpk/sdk';
import { ITEM, UPLOAD, UPLOAD_DELETED } from './answers.js';
import { bytes } from '../services/sizes.js';
import { presentItem, presentVersion } from '../services/present.js';
import { cancelUpload, completeUpload, startUpload } from '../services/uploads.js';
import { id, itemName } from './schemas.js';
import { route } from '../kit.js';

/** Uploads: a link the bytes stream to, then a completion that makes the file or its new version. */
export const uploadRoutes = [
  route({
    method: 'POST',
    path: '/uploads',
    chain: ['files.files.upload'],
    answers: { single: UPLOAD },
    description: 'Starts an upload (a new file: name and folder_id; a new version: file_id) and answers the link to PUT the bytes to',
    validate: {
      payload: Joi.object({
        name: itemName(),
        folder_id: id().allow(null),
        file_id: id(),
        size_bytes: Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER).required(),
        content_type: Joi.string().trim().min(3).max(255).pattern(/^[\w.+-]+\/[\w.+-]+$/).messages({ 'string.pattern.base': '{#label} must be a media type such as image/png' }),
      }),
    },
    async handler(request, ctx) {
      const { upload, url, expiresAt } = await startUpload(ctx, request.payload);
      return ctx.respond.single(
        { id: upload.id, name: upload.name, folder_id: upload.parent_id, file_id: upload.item_id, size_bytes: bytes(upload.size_bytes), content_type: upload.content_type, upload_url: url, method: 'PUT', expires_at: expiresAt },
        { self: `/uploads/${upload.id}`, completion: `/uploads/${upload.id}/completion` },
      );
    },
  }),
  route({
    method: 'POST',
    path: '/uploads/{upload_id}/completion',
    chain: ['files.files.upload'],
    answers: { single: ITEM },
    description: 'Finishes an upload whose bytes arrived: the file, or its new current version',
    validate: { params: Joi.idParams('upload_id') },
    async handler(request, ctx) {
      const { item, version, created } = await completeUpload(ctx, request.params.upload_id);
      return ctx.respond.single(presentItem(item, { created, version: presentVersion(version, item.version_id) }), { self: `/files/${item.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/uploads/{upload_id}',
    chain: ['files.files.upload'],
    answers: { single: UPLOAD_DELETED },
    description: 'Abandons an upload (and the bytes that arrived)',
    validate: { params: Joi.idParams('upload_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await cancelUpload(ctx, request.params.upload_id));
    },
  }),
];
