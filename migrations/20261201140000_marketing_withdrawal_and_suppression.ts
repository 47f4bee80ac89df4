/**
 * Withdrawing the marketing consent (issue 27, decision 047): when a lead's consent was
 * withdrawn, the personal withdrawal link of the emails to a lead (its token's hash,
 * derived like the guide link's), and the suppression list, keyed by keyed hashes of an
 * email address or a phone number so it outlives the erasure of the lead without keeping
 * the address. A lead is told to the CRM as withdrawn once (lead.consent_withdrawn).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.timestamp('marketing_consent_withdrawn_at', { useTz: true }).comment(
      'when the person refused marketing (link in an email, or an admin); the consent proof keeps its rows',
    );
  });

  await knex.schema.createTable('marketing_withdrawal_links', (t) => {
    t.integer('lead_id').primary().references('ebook_requests.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique().comment('SHA-256 of the token in the emailed link');
    t.timestamp('expires_at', { useTz: true }).notNullable().comment('the end of the retention period of the lead');
  });

  // No lead id, no address: only what says "do not market to this contact", kept for good.
  await knex.schema.createTable('marketing_suppressions', (t) => {
    t.string('contact_hash', 64).primary().comment('HMAC-SHA256 under SUPPRESSION_HASH_SECRET of "email:<address>" or "phone:<E.164>"');
    t.text('contact_kind').notNullable().checkIn(['email', 'phone']);
    t.text('source').notNullable().checkIn(['email', 'admin']).comment('the latest withdrawal: the emailed link, or an admin');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('suppressed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).comment('the latest withdrawal');
  });

  await knex.raw(
    `CREATE UNIQUE INDEX crm_deliveries_lead_consent_withdrawn_key ON crm_deliveries (lead_id) WHERE event = 'lead.consent_withdrawn'`,
  );
}

export async function down(knex: Knex) {
  await knex.raw('DROP INDEX crm_deliveries_lead_consent_withdrawn_key');
  // Earlier code knows no such event: its rows go, like the tables they came with.
  await knex('crm_deliveries').where({ event: 'lead.consent_withdrawn' }).delete();
  await knex.schema.dropTable('marketing_suppressions');
  await knex.schema.dropTable('marketing_withdrawal_links');
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.dropColumn('marketing_consent_withdrawn_at');
  });
}
