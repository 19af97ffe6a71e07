import { Joi } from '@wpk/sdk';
import { ITEM, STATS, TRANSFER } from './answers.js';
import { fileStats, memberItems, transferFiles } from '../services/admin.js';
import { presentItem } from '../services/present.js';

import { route } from '../kit.js';

/** A member named in the path: one of the workspace, or one who left it (offboarding looks at a leaver's files). */
const memberParams = Joi.object({ member_mrn: Joi.memberMrn({ former: true }).required() });

/** Admin-only: storage overview, a member's folders and files, offboarding transfers. */
export const adminRoutes = [
  route({
    method: 'GET',
    path: '/admin/file-stats',
    chain: [{ check: 'workspace_admin', message: 'Only workspace owners and admins may do this' }],
    answers: { single: STATS },
    description: 'Workspace storage overview: quota, usage by member and by type',
    async handler(_request, ctx) {
      return ctx.respond.single(await fileStats(ctx));
    },
  }),
  route({
    method: 'GET',
    path: '/admin/file-members/{member_mrn}/folders',
    chain: [{ check: 'workspace_admin', message: 'Only workspace owners and admins may do this' }],
    answers: { collection: ITEM },
    description: 'Folders owned by a member (the trash included), oldest first',
    validate: { params: memberParams, query: Joi.listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await memberItems(ctx, request.params.member_mrn, 'folder');
      return ctx.respond.collection(rows.map((item) => presentItem(item)), count);
    },
  }),
  route({
    method: 'GET',
    path: '/admin/file-members/{member_mrn}/files',
    chain: [{ check: 'workspace_admin', message: 'Only workspace owners and admins may do this' }],
    answers: { collection: ITEM },
    description: 'Files owned by a member (the trash included), oldest first',
    validate: { params: memberParams, query: Joi.listQuery() },
    async handler(request, ctx) {
      const { rows, count } = await memberItems(ctx, request.params.member_mrn, 'file');
      return ctx.respond.collection(rows.map((item) => presentItem(item)), count);
    },
  }),
  route({
    method: 'POST',
    path: '/admin/file-transfers',
    chain: [{ check: 'workspace_admin', message: 'Only workspace owners and admins may do this' }],
    answers: { single: TRANSFER },
    description: 'Moves every file and folder of one member to another (offboarding)',
    // from_mrn may have left the workspace (offboarding); to_mrn must be a member now.
    validate: { payload: Joi.object({ from_mrn: Joi.memberMrn({ former: true }).required(), to_mrn: Joi.memberMrn().required() }) },
    async handler(request, ctx) {
      return ctx.respond.single(await transferFiles(ctx, request.payload));
    },
  }),
];
