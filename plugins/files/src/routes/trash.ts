import { Joi } from '@wpk/sdk';
import { ITEM, PURGED } from './answers.js';
import { presentItem } from '../services/present.js';
import { listTrash, purgeItem, restoreItem } from '../services/trash.js';

import { route } from '../kit.js';

/** The trash: list, restore, purge. */
export const trashRoutes = [
  route({
    method: 'GET',
    path: '/trash',
    chain: ['files.files.read'],
    answers: { collection: ITEM },
    description: "The caller's trash, newest first",
    validate: { query: Joi.listQuery() },
    async handler(_request, ctx) {
      const { rows, count } = await listTrash(ctx);
      return ctx.respond.collection(rows.map((item) => presentItem(item)), count);
    },
  }),
  route({
    method: 'POST',
    path: '/trash/{file_id}/restoration',
    chain: ['files.files.delete'],
    answers: { single: ITEM },
    description: 'Restores an item (and what it held) from the trash',
    validate: { params: Joi.idParams('file_id') },
    async handler(request, ctx) {
      const item = await restoreItem(ctx, request.params.file_id);
      return ctx.respond.single(presentItem(item), { self: `/files/${item.id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/trash/{file_id}',
    chain: ['files.files.delete'],
    answers: { single: PURGED },
    description: 'Deletes an item of the trash for good',
    validate: { params: Joi.idParams('file_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await purgeItem(ctx, request.params.file_id));
    },
  }),
];
