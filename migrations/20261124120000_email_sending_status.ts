/**
 * `sending` on email_messages: the claim a worker takes before composing and sending an
 * email, as on SMS and CRM deliveries (decision 019). The partial index lets the sweeper
 * find the claims of a worker that stopped mid-send.
 */
import type { Knex } from 'knex';

// Copied, not imported from shared: a migration must not change when the code does.
const EMAIL_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'skipped'];

const list = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

/** Replaces the check constraint the core schema created (knex names it `<table>_status_check`). */
async function allowStatuses(knex: Knex, statuses: string[]) {
  await knex.raw(`
    ALTER TABLE email_messages
      DROP CONSTRAINT email_messages_status_check,
      ADD CONSTRAINT email_messages_status_check CHECK (status IN (${list(statuses)}))
  `);
}

export async function up(knex: Knex) {
  await allowStatuses(knex, [...EMAIL_STATUSES, 'sending']);
  await knex.raw(`CREATE INDEX email_messages_sending_idx ON email_messages (updated_at) WHERE status = 'sending'`);
}

export async function down(knex: Knex) {
  // A claim in flight becomes a retry, which the old code knows how to pick up.
  await knex('email_messages').where({ status: 'sending' }).update({ status: 'retrying', updated_at: knex.fn.now() });
  await knex.raw('DROP INDEX email_messages_sending_idx');
  await allowStatuses(knex, EMAIL_STATUSES);
}
