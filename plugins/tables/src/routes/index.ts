import { Joi } from '@wpk/sdk';
import { publicRoute, route, routeFamily } from '../kit.js';
import { createFormLink, readForm, submitForm } from '../services/forms.js';
import { FIELD_TYPES, ROLES, VIEW_TYPES, type BaseRole, type Field, type RecordComment, type HistoryEntry, type Table, type TableRecord, type View } from '../models/index.js';
import { requireRecord } from '../services/access.js';
import { createBase, createTable, deleteBase, deleteTable, listBases, listTables, presentTable, updateBase, updateTable } from '../services/bases.js';
import { createField, deleteField, listFields, namesOf, presentField, updateField } from '../services/fields.js';
import { listRecords, OPERATORS } from '../services/query.js';
import { createRecords, deleteRecord, fieldsOf, presentRecord, updateRecord, updateRecords } from '../services/records.js';
import { createView, deleteView, listViews, presentView, updateView } from '../services/views.js';
import { exportTable, importTable } from '../services/transfer.js';
import { downloadLink, uploadLink } from '../services/attachments.js';
import { ATTACHMENT_LINK, ATTACHMENT_UPLOAD, BASE, BULK_RECORDS, FORM, FORM_LINK, SUBMISSION, IMPORT_REPORT, BASE_ROLE, COMMENT, DELETED, DELETED_ROLE, FIELD, GROUP, HISTORY, RECORD, TABLE, VIEW } from './answers.js';
import { listRoles, presentRole, removeRole, setRole } from '../services/roles.js';

const page = <T>(all: T[], ctx: { page: { offset: number; limit: number } }) => ({ rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), count: all.length });
const name = () => Joi.string().trim().min(1).max(200);
const role = () => Joi.string().valid('none', 'viewer', 'editor', 'creator');

const fieldOptions = Joi.object({
  choices: Joi.array().max(200).items(Joi.object({ name: Joi.string().trim().min(1).max(100).required(), color: Joi.string().max(20) })),
  decimals: Joi.number().integer().min(0).max(8),
  symbol: Joi.string().max(5).allow(''),
  table_id: Joi.id(),
  link_field_id: Joi.id(),
  field_id: Joi.id(),
  function: Joi.string().max(20),
  expression: Joi.string().trim().min(1).max(2000),
  source: Joi.string().max(20),
});

const filter = Joi.object({ field_id: Joi.id().required(), op: Joi.string().valid(...OPERATORS).required(), value: Joi.any() });
const sort = Joi.object({ field_id: Joi.id().required(), direction: Joi.string().valid('asc', 'desc') });
const viewConfig = Joi.object({
  filters: Joi.array().max(50).items(filter),
  sorts: Joi.array().max(10).items(sort),
  group_by: Joi.id().allow(null),
  hidden_fields: Joi.array().max(500).items(Joi.id()),
  kanban_field_id: Joi.id(),
  date_field_id: Joi.id(),
  cover_field_id: Joi.id(),
  form_fields: Joi.array().max(500).items(Joi.id()),
});

const cells = () => Joi.object().pattern(Joi.string().max(200), Joi.any()).max(500);
const versions = () => Joi.object().pattern(Joi.string().max(200), Joi.number().integer().min(0).max(2_147_483_647)).max(500);

const bases = routeFamily('/tables/bases', { record: BASE, present: (base: ReturnType<typeof Object>) => base as never, links: (base: { id: string }) => ({ self: `/tables/bases/${base.id}` }) });
const base = bases.at('/{base_id}', { params: Joi.idParams('base_id') });
const baseTables = base.at('/tables', { record: TABLE, present: (table: Table) => presentTable(table), links: (table: Table) => ({ self: `/tables/tables/${table.id}` }) });
const baseRoles = base.at('/roles', { record: BASE_ROLE, present: (row: BaseRole) => presentRole(row) });
const baseRole = baseRoles.at('/{member_id}', { params: Joi.idParams('base_id', 'member_id') });
const table = routeFamily('/tables/tables/{table_id}', { params: Joi.idParams('table_id'), record: TABLE, present: (row: Table) => presentTable(row) });
const tableFields = table.at('/fields', {
  record: FIELD,
  present: async (field: Field & { conversion?: unknown }, ctx) => ('options' in field && 'conversion' in field ? field : presentField(field, namesOf(await fieldsOf(ctx, field.table_id)))) as never,
  links: (field: { id: string }) => ({ self: `/tables/fields/${field.id}` }),
});
const oneField = routeFamily('/tables/fields/{field_id}', { params: Joi.idParams('field_id'), record: FIELD, present: (field: unknown) => field as never });
const tableRecords = table.at('/records', { record: RECORD, present: (record: TableRecord) => presentRecord(record), links: (record: { id: string }) => ({ self: `/tables/records/${record.id}` }) });
const record = routeFamily('/tables/records/{record_id}', { params: Joi.idParams('record_id'), record: RECORD, present: (row: TableRecord) => presentRecord(row) });
const tableViews = table.at('/views', { record: VIEW, present: (view: View) => presentView(view), links: (view: View) => ({ self: `/tables/views/${view.id}` }) });
const view = routeFamily('/tables/views/{view_id}', { params: Joi.idParams('view_id'), record: VIEW, present: (row: View) => presentView(row) });

const READ = 'tables.bases.read';
const token = Joi.object({ token: Joi.string().min(20).max(100).pattern(/^[A-Za-z0-9_-]+$/).required() });
const EDIT = 'tables.records.edit';

/** Every route of the app. */
export const routes = [
  bases.list({ chain: [READ], description: 'Lists the bases the caller has a role on, by name, with that role', query: Joi.listQuery(), run: async (_request, ctx) => page(await listBases(ctx), ctx) }),
  bases.post({
    chain: ['tables.bases.create'],
    description: 'Creates a base; its maker is its creator. default_role (editor unless given) is the role of every member with no role of their own',
    payload: Joi.object({ name: name().required(), default_role: role() }),
    run: (request, ctx) => createBase(ctx, request.payload),
  }),
  base.patch({ chain: [EDIT], description: 'Renames a base or changes its default role (creators)', payload: Joi.object({ name: name(), default_role: role() }).min(1), run: (request, ctx) => updateBase(ctx, request.params.base_id, request.payload) }),
  base.delete({ chain: [EDIT], answers: { single: DELETED }, description: 'Deletes a base with its tables, records and views (creators)', run: (request, ctx) => deleteBase(ctx, request.params.base_id) }),

  baseRoles.list({ chain: [READ], description: "Lists the members' own roles on a base (the base's default_role applies to everyone else)", query: Joi.listQuery(), run: async (request, ctx) => page(await listRoles(ctx, request.params.base_id), ctx) }),
  baseRole.put({
    chain: [EDIT],
    description: 'Gives a member of the workspace a role of their own on a base: viewer, editor or creator (creators)',
    payload: Joi.object({ role: Joi.string().valid(...ROLES).required() }),
    run: (request, ctx) => setRole(ctx, request.params.base_id, request.params.member_id, request.payload.role),
  }),
  baseRole.delete({ chain: [EDIT], answers: { single: DELETED_ROLE }, description: "Takes a member's own role away: the base's default role applies to them again (creators)", run: (request, ctx) => removeRole(ctx, request.params.base_id, request.params.member_id) }),

  baseTables.list({ chain: [READ], description: "Lists a base's tables, oldest first", query: Joi.listQuery(), run: async (request, ctx) => page(await listTables(ctx, request.params.base_id), ctx) }),
  baseTables.post({
    chain: [EDIT],
    description: 'Adds a table with its primary text field (primary_field_name, "Name" unless given) and a grid view (creators); emits field.created for the primary field',
    payload: Joi.object({ name: name().required(), primary_field_name: name() }),
    run: (request, ctx) => createTable(ctx, request.params.base_id, request.payload),
  }),
  table.patch({ chain: [EDIT], description: 'Renames a table or names another primary field (creators)', payload: Joi.object({ name: name(), primary_field_id: Joi.id() }).min(1), run: (request, ctx) => updateTable(ctx, request.params.table_id, request.payload) }),
  table.delete({ chain: [EDIT], answers: { single: DELETED }, description: 'Deletes a table and its records; refused while another table links to it (creators)', run: (request, ctx) => deleteTable(ctx, request.params.table_id) }),

  table.at('/export/csv').get({
    chain: [READ],
    answers: { file: 'text/csv' },
    description: "A table's records as CSV (header: the field names), in a view's order and filters when view_id is given",
    query: Joi.object({ view_id: Joi.id() }),
    async handler(request, ctx) {
      const file = await exportTable(ctx, request.params.table_id, 'csv', request.query.view_id as string | undefined);
      return ctx.respond.file(file.body, { contentType: file.contentType, filename: file.filename });
    },
  }),
  table.at('/export/xlsx').get({
    chain: [READ],
    answers: { file: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    description: "A table's records as an XLSX workbook (header: the field names), in a view's order and filters when view_id is given",
    query: Joi.object({ view_id: Joi.id() }),
    async handler(request, ctx) {
      const file = await exportTable(ctx, request.params.table_id, 'xlsx', request.query.view_id as string | undefined);
      return ctx.respond.file(file.body, { contentType: file.contentType, filename: file.filename });
    },
  }),
  table.at('/import').post({
    chain: [EDIT],
    answers: { single: IMPORT_REPORT },
    description: 'Imports records from CSV text or a base64 XLSX workbook whose first row names fields: dry_run reports every bad cell by line and column and writes nothing; otherwise all or nothing (editors), one record.created each',
    payload: Joi.object({ format: Joi.string().valid('csv', 'xlsx').required(), content: Joi.string().min(1).max(8_000_000).required(), dry_run: Joi.boolean() }),
    handler: async (request, ctx) => ctx.respond.single(await importTable(ctx, request.params.table_id, request.payload)),
  }),

  tableFields.list({ chain: [READ], description: "Lists a table's fields in order", query: Joi.listQuery(), run: async (request, ctx) => page(await listFields(ctx, request.params.table_id), ctx) }),
  tableFields.post({
    chain: [EDIT],
    description: 'Adds a field of a type (a formula names fields as {Name}; a cycle is refused with its path); computed cells are filled at once (creators); emits field.created',
    payload: Joi.object({ name: name().required(), type: Joi.string().valid(...FIELD_TYPES).required(), options: fieldOptions }),
    run: (request, ctx) => createField(ctx, request.params.table_id, request.payload),
  }),
  oneField.patch({
    chain: [EDIT],
    description: 'Renames a field, changes its options or its type: a type change converts every cell and reports the ones it could not (creators); emits field.updated',
    payload: Joi.object({ name: name(), type: Joi.string().valid(...FIELD_TYPES), options: fieldOptions }).min(1),
    run: (request, ctx) => updateField(ctx, request.params.field_id, request.payload),
  }),
  oneField.delete({ chain: [EDIT], answers: { single: DELETED }, description: 'Deletes a field nothing reads, not the primary one (creators); emits field.deleted', run: (request, ctx) => deleteField(ctx, request.params.field_id) }),

  tableRecords.list({
    chain: [READ],
    answers: { collection: RECORD, alongside: { groups: GROUP, next_cursor: Joi.string().allow(null).description('The after of the next page; null on the last') } },
    description: "Lists a table's records: a view's saved filters, sorts, group and hidden fields (view_id), filter and sort (JSON lists), group_by, q; keyset pages of per_page after the cursor after",
    query: Joi.listQuery({ view_id: Joi.id(), filter: Joi.string().max(5000), sort: Joi.string().max(2000), group_by: Joi.id(), q: Joi.string().max(200).allow(''), after: Joi.string().max(2000) }),
    async handler(request, ctx) {
      const result = await listRecords(ctx, request.params.table_id, request.query as never);
      return { ...ctx.respond.collection(result.rows, result.total, { ...ctx.page, page: 1, offset: 0 }), groups: result.groups, next_cursor: result.next_cursor };
    },
  }),
  tableRecords.post({
    chain: [EDIT],
    description: 'Adds a record with cells by field id (editors); emits record.created with the field ids set',
    payload: Joi.object({ cells: cells() }),
    run: async (request, ctx) => (await createRecords(ctx, request.params.table_id, [request.payload], false))[0]!,
  }),
  tableRecords.at('/bulk').post({
    chain: [EDIT],
    answers: { single: BULK_RECORDS },
    description: 'Adds up to 1,000 records at once: all or none (editors); one record.created each',
    payload: Joi.object({ records: Joi.array().min(1).max(1000).items(Joi.object({ cells: cells() })).required() }),
    async handler(request, ctx) {
      const made = await createRecords(ctx, request.params.table_id, request.payload.records, true);
      return ctx.respond.single(made.map((row) => presentRecord(row)), { table: `/tables/tables/${request.params.table_id}` });
    },
  }),
  tableRecords.at('/bulk').patch({
    chain: [EDIT],
    answers: { single: BULK_RECORDS },
    description: "Updates up to 1,000 records at once, each cell with the version it read: all or none, a stale cell is a 409 (editors); one record.updated per changed record",
    payload: Joi.object({ records: Joi.array().min(1).max(1000).items(Joi.object({ id: Joi.id().required(), cells: cells().required(), versions: versions().required() })).required() }),
    async handler(request, ctx) {
      const done = await updateRecords(ctx, request.params.table_id, request.payload.records);
      return ctx.respond.single(done.map((row) => presentRecord(row)), { table: `/tables/tables/${request.params.table_id}` });
    },
  }),
  record.get({ chain: [READ], description: 'Reads a record with its cells and their versions', run: async (request, ctx) => (await requireRecord(ctx, request.params.record_id, 'viewer')).record }),
  record.patch({
    chain: [EDIT],
    description: 'Changes cells, each with the version it read (versions by field id): a stale one is a 409 naming the current version and value (editors); emits record.updated with the changed field ids, live on the table',
    payload: Joi.object({ cells: cells().min(1).required(), versions: versions().required() }),
    run: (request, ctx) => updateRecord(ctx, request.params.record_id, request.payload),
  }),
  record.delete({ chain: [EDIT], answers: { single: DELETED }, description: 'Deletes a record; links to it are removed (editors); emits record.deleted', run: (request, ctx) => deleteRecord(ctx, request.params.record_id) }),
  record.at('/comments', { record: COMMENT, present: (comment: RecordComment) => ({ id: comment.id, record_id: comment.record_id, body: comment.body, author_id: comment.author_id, created_at: comment.created_at }) }).list({
    chain: [READ],
    description: "Lists a record's comments, oldest first",
    query: Joi.listQuery(),
    async run(request, ctx) {
      const { record: row } = await requireRecord(ctx, request.params.record_id, 'viewer');
      return ctx.db.comments.findAndCountAll({ where: { record_id: row.id }, order: [['created_at', 'ASC'], ['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
    },
  }),
  record.at('/comments', { record: COMMENT, present: (comment: RecordComment) => ({ id: comment.id, record_id: comment.record_id, body: comment.body, author_id: comment.author_id, created_at: comment.created_at }) }).post({
    chain: [READ],
    answers: { single: COMMENT },
    description: 'Comments on a record (any role, viewers too); live on the table',
    payload: Joi.object({ body: Joi.string().trim().min(1).max(5000).required() }),
    async run(request, ctx) {
      const { record: row } = await requireRecord(ctx, request.params.record_id, 'viewer');
      const comment = await ctx.db.comments.create({ record_id: row.id, body: request.payload.body, author_id: ctx.member.id });
      ctx.live.publish(`tables/${row.table_id}`, 'comment.created', { id: comment.id, record_id: row.id, author_id: ctx.member.id });
      return { id: comment.id, record_id: comment.record_id, body: comment.body, author_id: comment.author_id, created_at: comment.created_at };
    },
  }),
  record.at('/history', { record: HISTORY, present: (entry: HistoryEntry) => ({ id: entry.id, record_id: entry.record_id, kind: entry.kind, changes: entry.changes, actor_id: entry.actor_id, created_at: entry.created_at }) }).list({
    chain: [READ],
    description: "Lists a record's changes, newest first: by field id, from and to",
    query: Joi.listQuery(),
    async run(request, ctx) {
      const { record: row } = await requireRecord(ctx, request.params.record_id, 'viewer');
      return ctx.db.history.findAndCountAll({ where: { record_id: row.id }, order: [['created_at', 'DESC'], ['id', 'DESC']], limit: ctx.page.limit, offset: ctx.page.offset });
    },
  }),

  tableViews.list({ chain: [READ], description: "Lists a table's shared views and the caller's personal ones", query: Joi.listQuery(), run: async (request, ctx) => page(await listViews(ctx, request.params.table_id), ctx) }),
  tableViews.post({
    chain: [READ],
    description: 'Adds a view: grid, kanban (kanban_field_id: a single select), calendar (date_field_id), gallery or form, with filters, sorts, group_by and hidden_fields; shared (creators) or personal (any role)',
    payload: Joi.object({ name: name().required(), type: Joi.string().valid(...VIEW_TYPES).required(), personal: Joi.boolean(), config: viewConfig }),
    run: (request, ctx) => createView(ctx, request.params.table_id, request.payload),
  }),
  view.patch({ chain: [READ], description: 'Changes a view: a shared one (creators), a personal one (its owner)', payload: Joi.object({ name: name(), type: Joi.string().valid(...VIEW_TYPES), config: viewConfig }).min(1), run: (request, ctx) => updateView(ctx, request.params.view_id, request.payload) }),
  view.delete({ chain: [READ], answers: { single: DELETED }, description: 'Deletes a view: a shared one (creators), a personal one (its owner)', run: (request, ctx) => deleteView(ctx, request.params.view_id) }),
  route({
    method: 'POST',
    path: '/tables/tables/{table_id}/attachment-uploads',
    chain: [EDIT],
    answers: { single: ATTACHMENT_UPLOAD },
    description: "A signed link to upload one file (PUT, within ten minutes, at most 25 MB) for the table's attachment cells; the key then goes in a cell as {key, name} (editors)",
    validate: { params: Joi.idParams('table_id'), payload: Joi.object({ filename: Joi.string().trim().min(1).max(255).required(), content_type: Joi.string().trim().min(3).max(100).pattern(/^[\w.+-]+\/[\w.+-]+$/).required(), size_bytes: Joi.number().integer().min(0) }) },
    handler: async (request, ctx) => ctx.respond.single(await uploadLink(ctx, request.params.table_id, request.payload)),
  }),
  route({
    method: 'GET',
    path: '/tables/records/{record_id}/attachment-link',
    chain: [READ],
    answers: { single: ATTACHMENT_LINK },
    description: 'A download link (five minutes) for a file one of the record\'s attachment cells holds',
    validate: { params: Joi.idParams('record_id'), query: Joi.object({ key: Joi.string().min(1).max(400).required() }) },
    handler: async (request, ctx) => ctx.respond.single(await downloadLink(ctx, request.params.record_id, request.query.key as string)),
  }),
  route({
    method: 'POST',
    path: '/tables/views/{view_id}/form-link',
    chain: [EDIT],
    answers: { single: FORM_LINK },
    description: "Makes (or replaces) a shared form view's public link: url is the page a person opens (on the workspace's public origin), where anyone may submit the form without signing in; the token is shown once (creators)",
    validate: { params: Joi.idParams('view_id') },
    handler: async (request, ctx) => ctx.respond.single(await createFormLink(ctx, request.params.view_id)),
  }),
  publicRoute({
    method: 'GET',
    path: '/tables/forms/{token}',
    answers: { single: FORM },
    description: "A public form: its title and the fields it asks for (404 once its link is replaced or the view deleted)",
    validate: { params: token },
    handler: async (request, ctx) => ctx.respond.single(await readForm(ctx, request.params.token)),
  }),
  publicRoute({
    method: 'POST',
    path: '/tables/forms/{token}',
    answers: { single: SUBMISSION },
    description: 'Submits a public form: a record with the form\'s fields only (rate limited by address and by form); emits record.created and form.submitted',
    rateLimits: [
      { name: 'form-client', per: 'client', limit: 30, windowSeconds: 3600, message: 'Too many submissions from your address; try again later' },
      { name: 'form-token', per: 'param:token', limit: 500, windowSeconds: 3600, message: 'This form is receiving too many submissions right now; try again later' },
    ],
    validate: { params: token, payload: Joi.object({ cells: cells().required() }) },
    handler: async (request, ctx) => ctx.respond.single(await submitForm(ctx, request.params.token, request.payload.cells)),
  }),
];
