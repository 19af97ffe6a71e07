import { defineRoute, Joi } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import { ITEM, STATS, TRANSFER } from './answers.js';
import type { Models } from '../models/index.js';
import { fileStats, memberItems, transferFiles } from '../services/admin.js';
import { presentItem } from '../services/present.js';
import { listQuery, mrnField } from './schemas.js';

const memberParams = Joi.object({ member_mrn: Joi.string().min(1).max(200).required() });

/** Admin-only: storage overview, a member's folders and files, offboarding transfers. */
export const adminRoutes = [
  defineRoute<Models, AppTypes>({
    method: 'GET',
    path: '/admin/file-stats',
    chain: [{ check: 'workspace_admin', message: 'Only workspace owners and admins may do this' }],
    answers: { single: STATS },
    description: 'Workspace storage overview: quota, usage by member and by type',
    async handler(_request, ctx) {
      return ctx.respond.single(await fileStats(ctx));
    },
  }),
  defineRoute<Models, AppTypes>({
    method: 'GET',
    path: '/admin/file-members/{member_mrn}/folders',
    chain: [{ check: 'workspace_admin', message: 'Only workspace owners and admins may do this' }],
    answers: { collection: ITEM },
    description: 'Folders owned by a member (the trash included), oldest first',
    validate: { params: memberParams, query: listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await memberItems(ctx, request.params.member_mrn, 'folder');
      return ctx.respond.collection(rows.map((item) => presentItem(item)), count);
    },
  }),
  defineRoute<Models, AppTypes>({
    method: 'GET',
    path: '/admin/file-members/{member_mrn}/files',
    chain: [{ check: 'workspace_admin', message: 'Only workspace owners and admins may do this' }],
    answers: { collection: ITEM },
    description: 'Files owned by a member (the trash included), oldest first',
    validate: { params: memberParams, query: listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await memberItems(ctx, request.params.member_mrn, 'file');
      return ctx.respond.collection(rows.map((item) => presentItem(item)), count);
    },
  }),
  defineRoute<Models, AppTypes>({
    method: 'POST',
    path: '/admin/file-transfers',
    chain: [{ check: 'workspace_admin', message: 'Only workspace owners and admins may do this' }],
    answers: { single: TRANSFER },
    description: 'Moves every file and folder of one member to another (offboarding)',
    validate: { payload: Joi.object({ from_mrn: mrnField().required(), to_mrn: mrnField().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await transferFiles(ctx, request.payload));
    },
  }),
];
