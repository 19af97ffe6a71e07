import { tenantTable, type AppMigration } from '@wpk/sdk';

/** The Contacts app's tables, in its own schema (`app_contacts`), each keyed by workspace. */
export const createContacts: AppMigration = {
  name: '0001-create-contacts',
  async up({ query }) {
    await query(
      tenantTable('contacts', {
        columns: {
          id: 'uuid NOT NULL',
          display_name: 'varchar(200) NOT NULL',
          given_name: 'varchar(100)',
          family_name: 'varchar(100)',
          middle_name: 'varchar(100)',
          prefix: 'varchar(50)',
          suffix: 'varchar(50)',
          nickname: 'varchar(100)',
          organization: 'varchar(200)',
          job_title: 'varchar(200)',
          company_mrn: 'varchar(200)',
          member_mrn: 'varchar(200)',
          emails: "jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(emails) = 'array')",
          phones: "jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(phones) = 'array')",
          addresses: "jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(addresses) = 'array')",
          birthday: 'date',
          notes: "varchar(10000) NOT NULL DEFAULT ''",
          tags: "jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tags) = 'array')",
          search_text: "text NOT NULL DEFAULT ''",
          source: "varchar(20) NOT NULL CHECK (source IN ('manual', 'import', 'suggestion'))",
          creator_id: 'uuid NOT NULL',
        },
      }),
    );
    await query('CREATE INDEX contacts_name_idx ON contacts (workspace_id, display_name, id)');
    await query('CREATE INDEX contacts_company_idx ON contacts (workspace_id, company_mrn)');
    await query(
      tenantTable('contact_keys', {
        columns: { contact_id: 'uuid NOT NULL', kind: "varchar(10) NOT NULL CHECK (kind IN ('email', 'phone', 'member', 'name'))", value: 'varchar(320) NOT NULL' },
        primaryKey: ['contact_id', 'kind', 'value'],
        references: { contact_id: { table: 'contacts' } },
        timestamps: false,
      }),
    );
    await query('CREATE INDEX contact_keys_value_idx ON contact_keys (workspace_id, kind, value)');
    await query(
      tenantTable('company_copies', {
        columns: { company_id: 'uuid NOT NULL', name: 'varchar(200) NOT NULL', domain: 'varchar(253)', revision: 'integer NOT NULL', deleted: 'boolean NOT NULL DEFAULT false' },
        primaryKey: ['company_id'],
      }),
    );
    await query(
      tenantTable('suggestions', {
        columns: {
          id: 'uuid NOT NULL',
          owner_id: 'uuid NOT NULL',
          person_key: 'varchar(400) NOT NULL',
          member_mrn: 'varchar(200)',
          email: 'varchar(320)',
          name: 'varchar(200)',
          sources: "jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(sources) = 'array')",
          interactions: 'integer NOT NULL DEFAULT 0',
          last_interaction_at: 'timestamptz NOT NULL',
          status: "varchar(10) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'dismissed'))",
          contact_id: 'uuid',
        },
        unique: [['owner_id', 'person_key']],
      }),
    );
    await query('CREATE INDEX suggestions_owner_idx ON suggestions (workspace_id, owner_id, status)');
    await query(tenantTable('seen_events', { columns: { event_id: 'varchar(100) NOT NULL', action: 'varchar(200) NOT NULL' }, primaryKey: ['event_id'] }));
  },
  async down({ query }) {
    await query('DROP TABLE seen_events; DROP TABLE suggestions; DROP TABLE company_copies; DROP TABLE contact_keys; DROP TABLE contacts');
  },
};
