import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * A deck's slides as a collaborative document on the SDK's editing stack
 * (`defineCollabDocuments`): `deck_documents` (the Yjs snapshot, and the stable JSON `{slides}`
 * and its plain text beside it) and `deck_updates` (the updates not yet merged). Both go with the
 * deck. `decks.edited_event_at` is when a live edit last emitted `core.slides.deck.updated` (one
 * event for a burst of edits). A deck made before this migration gets its document on first use.
 */
export const createDeckDocuments: AppMigration = {
  name: '0002-deck-documents',
  async up({ query }) {
    const ofDeck = { references: { deck_id: { table: 'decks' } }, referencesWorkspace: false };
    await query(tenantTable('deck_documents', { ...ofDeck, columns: { deck_id: 'uuid NOT NULL', state: 'bytea', content: 'jsonb NOT NULL', text: "text NOT NULL DEFAULT ''" }, primaryKey: ['deck_id'] }));
    await query(tenantTable('deck_updates', { ...ofDeck, columns: { id: 'uuid NOT NULL', deck_id: 'uuid NOT NULL', data: 'bytea NOT NULL', member_id: 'uuid' } }));
    await query('CREATE INDEX deck_updates_deck_idx ON deck_updates (workspace_id, deck_id, created_at)');
    await query('ALTER TABLE decks ADD COLUMN edited_event_at timestamptz');
  },
  async down({ query }) {
    await query('ALTER TABLE decks DROP COLUMN edited_event_at');
    await query('DROP TABLE deck_updates, deck_documents');
  },
};
