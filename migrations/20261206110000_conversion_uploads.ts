/**
 * Conversions sent back to the ad platforms (issue 30, decision 061): one row per lead,
 * platform and event, whatever the way it leaves (the Meta Conversions API posts it; Google
 * Ads fetches it in its scheduled offline conversion import). A delivery table like
 * crm_deliveries: a status moved by the transitions of shared/src/deliveries, the attempts,
 * the platform's answer in short (no personal data), when it went out.
 *
 * The lead's id outlives the lead in `subject_lead_id` (the row's key): an erased lead's
 * rows stay, with `lead_id` NULL, so nothing about it is ever sent again and the operator
 * still sees what was. The `ebook_requests.user_agent` the events carry is already stored
 * with every lead (clamped to 512 characters, blanked by erasure): no column is added.
 */
import type { Knex } from 'knex';

// Copied, not imported from shared: a migration must not change when the code does.
const STATUSES = ['pending', 'retrying', 'sending', 'delivered', 'failed', 'skipped'];
const PLATFORMS = ['meta', 'google_ads'];
const EVENTS = ['lead', 'verified_lead'];

export async function up(knex: Knex) {
  await knex.schema.createTable('conversion_uploads', (t) => {
    t.bigIncrements('id');
    t.bigInteger('lead_id').references('ebook_requests.id').onDelete('SET NULL');
    t.bigInteger('subject_lead_id').notNullable().comment('the lead the conversion is about, kept after the lead is erased');
    t.text('platform').notNullable().checkIn(PLATFORMS);
    t.text('event').notNullable().checkIn(EVENTS);
    t.text('event_id').notNullable().comment('the id the platform deduplicates the event by (lead-<id>, lead-<id>-verified)');
    t.text('status').notNullable().defaultTo('pending').checkIn(STATUSES);
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('response_status');
    t.text('response_summary').comment('the platform’s answer in short (events received, trace id): never personal data');
    t.text('last_error');
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['subject_lead_id', 'platform', 'event']);
    t.index(['lead_id']);
  });
  // The sweep's two lists (still to send; claims a stopped worker left) and the alert's
  // latest outcome per platform.
  await knex.raw(
    `CREATE INDEX conversion_uploads_unsent_idx ON conversion_uploads (updated_at) WHERE status IN ('pending', 'retrying')`,
  );
  await knex.raw(`CREATE INDEX conversion_uploads_sending_idx ON conversion_uploads (updated_at) WHERE status = 'sending'`);
  await knex.raw('CREATE INDEX conversion_uploads_platform_updated_at_idx ON conversion_uploads (platform, updated_at)');
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('conversion_uploads');
}
