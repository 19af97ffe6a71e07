import type { AppMigration } from '@wpk/sdk';

/**
 * Messages and drafts carry files: `attachments`, a JSON list of `{id, file_key, filename,
 * content_type, size_bytes}`, the bytes in the app's storage (`ctx.storage`). Down drops the
 * lists (the stored files stay until their account goes).
 */
export const attachments: AppMigration = {
  name: '0005-attachments',
  async up({ query }) {
    await query("ALTER TABLE messages ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'");
    await query("ALTER TABLE drafts ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'");
  },
  async down({ query }) {
    await query('ALTER TABLE messages DROP COLUMN attachments');
    await query('ALTER TABLE drafts DROP COLUMN attachments');
  },
};
