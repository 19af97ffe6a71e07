import { Joi } from '@wpk/sdk';
import { DOWNLOAD, ITEM, SHARE, SHARE_DELETED, VERSION } from './answers.js';
import { copyItem, createFolder, listFolder, listShared, trashItem, updateItem } from '../services/items.js';
import { presentItem, presentShare, presentVersion } from '../services/present.js';
import { deleteShare, listShares, putShare } from '../services/shares.js';
import { downloadLink, listVersions, restoreVersion } from '../services/uploads.js';
import { requireItem } from '../services/access.js';
import { id, itemName } from './schemas.js';
import { route, routeFamily } from '../kit.js';

const link = (itemId: string) => `/files/${itemId}`;

const file = routeFamily('/files/{file_id}', { params: Joi.idParams('file_id'), record: ITEM });

/** The member's space: folders, files, copies, downloads, versions, shares. */
export const fileRoutes = [
  route({
    method: 'GET',
    path: '/files',
    chain: ['files.files.read'],
    answers: { collection: ITEM },
    description: "Lists a folder (folder_id; default the caller's root): folders first, then files, by name",
    validate: { query: Joi.listQuery({ folder_id: id() }) },
    async handler(request, ctx) {
      const { rows, count, access } = await listFolder(ctx, request.query.folder_id as string | undefined);
      return ctx.respond.collection(rows.map((item) => presentItem(item, { access })), count);
    },
  }),
  route({
    method: 'GET',
    path: '/shared-files',
    chain: ['files.files.read'],
    answers: { collection: ITEM },
    description: 'Lists the files and folders other members shared with the caller, newest share first',
    validate: { query: Joi.listQuery() },
    async handler(_request, ctx) {
      const { rows, count } = await listShared(ctx);
      return ctx.respond.collection(rows.map(({ item, role }) => presentItem(item, { access: role })), count);
    },
  }),
  route({
    method: 'POST',
    path: '/folders',
    chain: ['files.files.edit'],
    answers: { single: ITEM },
    description: "Creates a folder (parent_id: a folder the caller may edit; default their root)",
    validate: { payload: Joi.object({ name: itemName().required(), parent_id: id().allow(null) }) },
    async handler(request, ctx) {
      const folder = await createFolder(ctx, request.payload);
      return ctx.respond.single(presentItem(folder), { self: link(folder.id) });
    },
  }),
  file.get({
    chain: ['files.files.read'],
    description: 'Reads a file or folder',
    async handler(request, ctx) {
      const { item, access } = await requireItem(ctx, request.params.file_id);
      return ctx.respond.single(presentItem(item, { access }), item.kind === 'file' ? { download: `${link(item.id)}/download`, versions: `${link(item.id)}/versions` } : { children: `/files?folder_id=${item.id}` });
    },
  }),
  file.patch({
    chain: ['files.files.edit'],
    description: 'Renames (name) or moves (parent_id; null: the root) a file or folder',
    payload: Joi.object({ name: itemName(), parent_id: id().allow(null) }).min(1),
    async handler(request, ctx) {
      const item = await updateItem(ctx, request.params.file_id, request.payload);
      return ctx.respond.single(presentItem(item), { self: link(item.id) });
    },
  }),
  file.delete({
    chain: ['files.files.delete'],
    description: "Moves a file or folder (and what it holds) to its owner's trash",
    async handler(request, ctx) {
      const item = await trashItem(ctx, request.params.file_id);
      return ctx.respond.single(presentItem(item), { self: link(item.id), trash: '/trash' });
    },
  }),
  file.at('/copies').post({
    chain: ['files.files.edit'],
    description: 'Copies a file (its current version) or a folder (with everything in it)',
    payload: Joi.object({ parent_id: id().allow(null), name: itemName() }),
    async handler(request, ctx) {
      const copy = await copyItem(ctx, request.params.file_id, request.payload ?? {});
      return ctx.respond.single(presentItem(copy), { self: link(copy.id) });
    },
  }),
  file.at('/download').get({
    chain: ['files.files.read'],
    answers: { single: DOWNLOAD },
    description: "A link to download the file's current version",
    run: (request, ctx) => downloadLink(ctx, request.params.file_id),
  }),
  file.at('/versions').list({
    chain: ['files.files.read'],
    answers: { collection: VERSION },
    description: "Lists a file's versions, newest first",
    query: Joi.listQuery(),
    async handler(request, ctx) {
      const { item, rows, count } = await listVersions(ctx, request.params.file_id);
      return ctx.respond.collection(rows.map((version) => presentVersion(version, item.version_id)), count);
    },
  }),
  file.at('/versions/{version_id}/download', { params: Joi.idParams('file_id', 'version_id') }).get({
    chain: ['files.files.read'],
    answers: { single: DOWNLOAD },
    description: 'A link to download one version of a file',
    run: (request, ctx) => downloadLink(ctx, request.params.file_id, request.params.version_id),
  }),
  file.at('/versions/{version_id}/restoration', { params: Joi.idParams('file_id', 'version_id') }).post({
    chain: ['files.files.upload'],
    description: 'Makes an older version current again (as a new version)',
    async handler(request, ctx) {
      const { item, version } = await restoreVersion(ctx, request.params.file_id, request.params.version_id);
      return ctx.respond.single(presentItem(item, { version: presentVersion(version, item.version_id) }), { self: link(item.id) });
    },
  }),
  file.at('/shares').list({
    chain: ['files.files.read'],
    answers: { collection: SHARE },
    description: 'Lists the members a file or folder is shared with',
    query: Joi.listQuery(),
    async handler(request, ctx) {
      const { rows, count } = await listShares(ctx, request.params.file_id);
      return ctx.respond.collection(rows.map(presentShare), count);
    },
  }),
  route({
    method: 'PUT',
    path: '/files/{file_id}/shares/{member_id}',
    chain: ['files.files.share'],
    answers: { single: SHARE },
    description: 'Shares a file or folder with a member (role read or edit), or changes their role',
    // The member shared with: a member of the workspace now (a newcomer at once; a random id, another workspace's member or one who left: 400).
    validate: { params: Joi.object({ file_id: id().required(), member_id: Joi.memberId().required() }), payload: Joi.object({ role: Joi.string().valid('read', 'edit').required() }) },
    async handler(request, ctx) {
      const { share, created } = await putShare(ctx, request.params.file_id, request.params.member_id, request.payload.role);
      return ctx.respond.single({ ...presentShare(share), created }, { self: `${link(share.item_id)}/shares/${share.member_id}` });
    },
  }),
  route({
    method: 'DELETE',
    path: '/files/{file_id}/shares/{member_id}',
    chain: ['files.files.share'],
    answers: { single: SHARE_DELETED },
    description: 'Stops sharing a file or folder with a member (the member may leave a share)',
    validate: { params: Joi.idParams('file_id', 'member_id') },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteShare(ctx, request.params.file_id, request.params.member_id));
    },
  }),
];
