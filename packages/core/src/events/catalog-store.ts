import type pg from 'pg';
import { EventRegistry } from './registry.js';
import type { ParticipantDeclaration } from './types.js';

/** Anything that runs a parameterised query: a pg Pool or PoolClient. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * Writes the registry into the shared catalog tables, replacing what was there, so broker
 * processes that run no app code (`wpk broker`) deliver with the same schemas, subscriptions and
 * addresses as the servers. Runs in one transaction on the given client.
 */
export async function storeCatalog(client: Queryable, declarations: ParticipantDeclaration[]): Promise<void> {
  const participants = declarations.map((declaration) => ({ slug: declaration.slug, first_party: declaration.firstParty, address: declaration.address }));
  const actions = declarations.flatMap((declaration) =>
    (declaration.emits ?? []).map((emit) => ({ action: emit.action, emitter: declaration.slug, description: emit.description, schema: emit.schema, redact: emit.redact ?? [] })),
  );
  const subscriptions = declarations.flatMap((declaration) =>
    (declaration.subscriptions ?? []).map((subscription) => ({ subscriber: declaration.slug, action: subscription.action, handler: subscription.handler, max_retries: subscription.max_retries ?? 3 })),
  );
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('wpk-event-catalog'))`);
  await client.query(`DELETE FROM platform.event_participants WHERE NOT (slug = ANY($1::text[]))`, [participants.map((participant) => participant.slug)]);
  await client.query(
    `INSERT INTO platform.event_participants (slug, first_party, address, updated_at)
     SELECT slug, first_party, address, now() FROM jsonb_to_recordset($1::jsonb) AS x(slug text, first_party boolean, address text)
     ON CONFLICT (slug) DO UPDATE SET first_party = EXCLUDED.first_party, address = EXCLUDED.address, updated_at = now()`,
    [JSON.stringify(participants)],
  );
  await client.query(`DELETE FROM platform.event_actions`);
  await client.query(
    `INSERT INTO platform.event_actions (action, emitter, description, schema, redact)
     SELECT action, emitter, description, schema, redact FROM jsonb_to_recordset($1::jsonb) AS x(action text, emitter text, description text, schema jsonb, redact jsonb)`,
    [JSON.stringify(actions)],
  );
  await client.query(`DELETE FROM platform.event_subscriptions`);
  await client.query(
    `INSERT INTO platform.event_subscriptions (subscriber, action, handler, max_retries)
     SELECT subscriber, action, handler, max_retries FROM jsonb_to_recordset($1::jsonb) AS x(subscriber text, action text, handler text, max_retries int)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(subscriptions)],
  );
}

/** Reads the stored catalog back into a registry (what a standalone broker delivers with). */
export async function loadCatalog(client: Queryable): Promise<EventRegistry> {
  const participants = await client.query<{ slug: string; first_party: boolean; address: string | null }>(`SELECT slug, first_party, address FROM platform.event_participants ORDER BY slug`);
  const actions = await client.query<{ action: string; emitter: string; description: string; schema: Record<string, unknown>; redact: string[] }>(
    `SELECT action, emitter, description, schema, redact FROM platform.event_actions ORDER BY action, emitter`,
  );
  const subscriptions = await client.query<{ subscriber: string; action: string; handler: string; max_retries: number }>(
    `SELECT subscriber, action, handler, max_retries FROM platform.event_subscriptions ORDER BY subscriber, action, handler`,
  );
  const declarations: ParticipantDeclaration[] = participants.rows.map((row) => ({
    slug: row.slug,
    firstParty: row.first_party,
    address: row.address,
    emits: actions.rows.filter((action) => action.emitter === row.slug).map(({ action, description, schema, redact }) => ({ action, description, schema, redact })),
    subscriptions: subscriptions.rows.filter((subscription) => subscription.subscriber === row.slug).map(({ action, handler, max_retries }) => ({ action, handler, max_retries })),
  }));
  return EventRegistry.fromStored(declarations);
}

/** Reads one broker setting (`self_url`, ...). */
export async function readSetting(client: Queryable, key: string): Promise<string | undefined> {
  const { rows } = await client.query<{ value: string }>(`SELECT value FROM platform.event_settings WHERE key = $1`, [key]);
  return rows[0]?.value;
}

/** Writes one broker setting. */
export async function writeSetting(client: Queryable, key: string, value: string): Promise<void> {
  await client.query(
    `INSERT INTO platform.event_settings (key, value, updated_at) VALUES ($1, $2, now()) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, value],
  );
}
