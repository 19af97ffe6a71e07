import type { AppMigration } from '@wpk/sdk';

/**
 * Domains are claimed by proving control: each domain row gets its own token, published by the
 * domain's owner at `_wpk-verify.<domain>` (TXT `wpk-verification=<token>`). A domain verified
 * before had proven nothing of the kind (docs/decisions/0173-mail-domain-ownership.md): it is
 * unverified until its workspace publishes the record and verifies again, and receives nothing
 * meanwhile.
 */
export const domainOwnership: AppMigration = {
  name: '0003-domain-ownership',
  async up({ query }) {
    await query('ALTER TABLE domains ADD COLUMN verification_token varchar(64)');
    await query("UPDATE domains SET verification_token = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), verified_at = NULL");
    await query('ALTER TABLE domains ALTER COLUMN verification_token SET NOT NULL');
  },
  // Going back keeps the domains unverified: nothing before this migration proved control either.
  async down({ query }) {
    await query('ALTER TABLE domains DROP COLUMN verification_token');
  },
};
