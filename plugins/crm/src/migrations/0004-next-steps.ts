import type { AppMigration } from '@wpk/sdk';

/** A deal's next step: what is to be done and by when. */
export const addNextSteps: AppMigration = {
  name: '0004-next-steps',
  async up({ query }) {
    await query('ALTER TABLE deals ADD COLUMN next_step varchar(300)');
    await query('ALTER TABLE deals ADD COLUMN next_step_due date');
  },
  async down({ query }) {
    await query('ALTER TABLE deals DROP COLUMN next_step_due');
    await query('ALTER TABLE deals DROP COLUMN next_step');
  },
};
