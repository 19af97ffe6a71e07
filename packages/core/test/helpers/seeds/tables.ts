/**
 * The Tables app's records for the route-table guards: a base with a table, a text field besides
 * the primary one, a record, a comment on it, a kanban view and a form view's public link, so every tables route has a
 * record of each workspace to name.
 */

/** What the Tables app seeds. */
export type TablesSeedKind = 'tables_base' | 'tables_table' | 'tables_field' | 'tables_record' | 'tables_view' | 'tables_form_token';

/** Path parameters of the app's routes, by first path segment (`/tables/records/{record_id}`). */
export const TABLES_PARAM_KINDS: Record<string, Record<string, TablesSeedKind>> = {
  tables: { base_id: 'tables_base', table_id: 'tables_table', field_id: 'tables_field', record_id: 'tables_record', view_id: 'tables_view', token: 'tables_form_token' },
};

/** Body fields naming the app's records. */
export const TABLES_FIELD_KINDS: Record<string, TablesSeedKind> = { primary_field_id: 'tables_field' };

type Call = (method: string, url: string, body?: unknown) => Promise<any>;

/** Seeds Tables: installs it and makes one of each record. */
export async function seedTables(call: Call, marker: string): Promise<Record<TablesSeedKind, string>> {
  await call('POST', '/applications/tables/installations', {});
  const base = (await call('POST', '/tables/bases', { name: `${marker} base` })).id as string;
  const table = await call('POST', `/tables/bases/${base}/tables`, { name: `${marker} table` });
  const status = (await call('POST', `/tables/tables/${table.id}/fields`, { name: 'Status', type: 'single_select', options: { choices: [{ name: 'New' }, { name: 'Done' }] } })).id as string;
  const field = (await call('POST', `/tables/tables/${table.id}/fields`, { name: 'Notes', type: 'text' })).id as string;
  const record = (await call('POST', `/tables/tables/${table.id}/records`, { cells: { [table.primary_field_id]: `${marker} record`, [status]: 'New' } })).id as string;
  await call('POST', `/tables/records/${record}/comments`, { body: `${marker} comment` });
  const view = (await call('POST', `/tables/tables/${table.id}/views`, { name: `${marker} board`, type: 'kanban', config: { kanban_field_id: status } })).id as string;
  const form = (await call('POST', `/tables/tables/${table.id}/views`, { name: `${marker} form`, type: 'form' })).id as string;
  const link = (await call('POST', `/tables/views/${form}/form-link`, {})).token as string;
  return { tables_form_token: link, tables_base: base, tables_table: table.id, tables_field: field, tables_record: record, tables_view: view };
}
