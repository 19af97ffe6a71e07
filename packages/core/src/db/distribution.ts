import { checkDistribution, distributionPlan, readDistributionCatalog, type CatalogTable, type DistributionLists, type DistributionProblem } from '@wpk/sdk/tooling';
import { QueryTypes, type Sequelize } from 'sequelize';

/**
 * The declared exceptions of the platform's schema (docs/scale-out.md). Every other table of
 * `platform`, `app_*` and `ext_*` is a tenant table, sharded by `workspace_id`; the catalog test
 * (test/distribution.test.ts, and `TestPlatform.distributionProblems()` for an app's own tests)
 * holds every table to the rules, and `wpk db distribution-plan` prints the Citus commands from
 * these same lists.
 */
export const PLATFORM_DISTRIBUTION: DistributionLists = Object.freeze({
  reference: Object.freeze({
    'platform.workspaces': 'The tenants themselves: every tenant table references a workspace, and a host is resolved to its workspace before any tenant row is read. Small, rarely written.',
    'platform.accounts': 'People, across workspaces: one account can be a member of several workspaces, so it belongs to no shard; members and sessions reference it. Written at sign-up and on password or two-factor changes.',
    'platform.event_participants': 'The event catalog, the same for every workspace: rewritten when the set of apps changes, read by every broker.',
    'platform.event_actions': 'The event catalog, the same for every workspace: rewritten when the set of apps changes, read by every broker.',
    'platform.event_subscriptions': 'The event catalog, the same for every workspace: rewritten when the set of apps changes, read by every broker.',
    'platform.event_settings': 'Bus-wide settings (the same for every workspace), a handful of rows.',
    'platform.coupons': 'Coupons are made by operators for the whole platform; redemptions (per workspace) reference them. Small, rarely written.',
    'platform.release_notes': 'Release notes are the same for every workspace (one thread per version in every workspace\'s messages). Small, written by operators.',
    'platform.preview_apps': 'Preview apps are offered platform-wide by operators; adopters (per workspace) reference them. A handful of rows.',
    'platform.operators': 'The people who run the platform, across workspaces: looked up by credential hash before any workspace is known. A handful of rows.',
  }),
  coordinator: Object.freeze({
    'platform.signups': 'A sign-up comes before its workspace exists: looked up by its code hash alone.',
    'platform.password_resets': 'Account-level (no workspace): a reset link is looked up by its token hash alone.',
    'platform.recovery_codes': 'Account-level two-factor recovery codes (no workspace).',
    'platform.throttle_counters': 'Throttles keyed by address or e-mail across workspaces (sign-in floods), one row per key.',
    'platform.credential_hashes': 'Which workspace a session or API-key hash belongs to: read before the credential\'s workspace is known (any host), and the one place such a hash is unique across workspaces.',
    'platform.name_claims': 'Names one workspace holds across the platform (an app\'s claimed mail domain): unique across workspaces, and looked up by name before the workspace is known (mail arriving for a domain).',
    '*.migrations': 'Each schema\'s migration bookkeeping, written by `wpk migrate` on the coordinator.',
  }),
  triggers: Object.freeze({
    'app_finance.journal_entries.journal_entries_immutable': 'Posted journal entries are never changed or deleted (a void posts a reversal): the trigger refuses UPDATE and DELETE, except the cascade of a deleted workspace. It reads only the row it guards, so it runs on the shard as it is.',
    'app_finance.journal_lines.journal_lines_immutable': 'Posted journal lines are never changed or deleted, as their entries: the same trigger.',
  }),
  identity: Object.freeze({
    'platform.activity.seq': 'Tie-break of the activity trail after created_at, within a workspace: it needs to be unique, not gap-free or global.',
    'platform.notifications.seq': 'Tie-break of a member\'s notifications after created_at: it needs to be unique, not gap-free or global.',
    'platform.messages.seq': 'Tie-break of a thread\'s messages after created_at (posting order of notices posted at one instant): it needs to be unique, not gap-free or global.',
    'platform.events.seq': 'The outbox order within a workspace (the relay takes a workspace\'s pending events in seq order). Citus draws it on the node that inserts: keep event writes on the coordinator, or order by (created_at, seq) per node (docs/scale-out.md).',
    'platform.search_records.id': 'An internal handle of a search hit, never exposed or referenced: it only needs to be unique.',
    'platform.api_key_audit.id': 'The order of one key\'s audit trail (bigserial): it only needs to be unique and rising within a workspace.',
  }),
});

const select = (sequelize: Sequelize) => (sql: string) => sequelize.query<Record<string, unknown>>(sql, { type: QueryTypes.SELECT });

/** The catalog of the platform's and apps' schemas, as the rules read it. */
export function distributionCatalog(sequelize: Sequelize): Promise<CatalogTable[]> {
  return readDistributionCatalog(select(sequelize));
}

/** Every breach of the distribution rules in this database (empty when it can be sharded by workspace). */
export async function distributionProblems(sequelize: Sequelize, lists: DistributionLists = PLATFORM_DISTRIBUTION): Promise<DistributionProblem[]> {
  return checkDistribution(await distributionCatalog(sequelize), lists);
}

/** The Citus commands that distribute this (migrated) database; refuses while a rule is broken. */
export async function platformDistributionPlan(sequelize: Sequelize, lists: DistributionLists = PLATFORM_DISTRIBUTION): Promise<string[]> {
  const catalog = await distributionCatalog(sequelize);
  const problems = checkDistribution(catalog, lists);
  if (problems.length > 0) {
    throw Object.assign(new Error(`The schema cannot be distributed by workspace yet: ${problems.length} problem(s)\n${problems.map((p) => `${p.table}: ${p.problem}`).join('\n')}`), {
      problems: problems.map((p) => `${p.table}: ${p.problem}`),
    });
  }
  return distributionPlan(catalog, lists, 'platform.members');
}
