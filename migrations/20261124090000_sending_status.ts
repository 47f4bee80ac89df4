/**
 * `sending`: the claim a worker takes on an SMS or a CRM delivery before calling the
 * provider, so two overlapping runs of one job send once (decision 019). The partial
 * indexes let the sweeper find the claims of a worker that stopped mid-send.
 */
import type { Knex } from 'knex';

// Copied, not imported from shared: a migration must not change when the code does.
const SMS_STATUSES = ['pending', 'retrying', 'sent', 'delivered', 'undelivered', 'failed', 'skipped'];
const CRM_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'skipped'];
const TABLES = [
  { table: 'sms_messages', statuses: SMS_STATUSES },
  { table: 'crm_deliveries', statuses: CRM_STATUSES },
];

const list = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

/** Replaces the check constraint the core schema created (knex names it `<table>_status_check`). */
async function allowStatuses(knex: Knex, table: string, statuses: string[]) {
  await knex.raw(`
    ALTER TABLE ${table}
      DROP CONSTRAINT ${table}_status_check,
      ADD CONSTRAINT ${table}_status_check CHECK (status IN (${list(statuses)}))
  `);
}

export async function up(knex: Knex) {
  for (const { table, statuses } of TABLES) {
    await allowStatuses(knex, table, [...statuses, 'sending']);
    await knex.raw(`CREATE INDEX ${table}_sending_idx ON ${table} (updated_at) WHERE status = 'sending'`);
  }
}

export async function down(knex: Knex) {
  // A claim in flight becomes a retry, which the old code knows how to pick up.
  await knex.raw(`
    WITH released AS (
      UPDATE sms_messages SET status = 'retrying', updated_at = now() WHERE status = 'sending' RETURNING id
    )
    INSERT INTO sms_events (sms_message_id, status, error_message)
    SELECT id, 'retrying', 'sending status removed by a migration rollback' FROM released
  `);
  await knex('crm_deliveries').where({ status: 'sending' }).update({ status: 'retrying', updated_at: knex.fn.now() });
  for (const { table, statuses } of TABLES) {
    await knex.raw(`DROP INDEX ${table}_sending_idx`);
    await allowStatuses(knex, table, statuses);
  }
}
