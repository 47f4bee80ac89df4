/**
 * Data-protection rights: the life cycle of a data request (confirmation link, processing,
 * erasure), the exports delivered by a personal link, the record of each erasure without
 * the data, the lead an erased CRM event was about, GDPR emails, and consent proof rows
 * whose facts can no longer change (only the identity fields may be erased).
 */
import type { Knex } from 'knex';

// Copied, not imported from shared: a migration must not change when the code does.
const REQUEST_TYPES = ['access', 'deletion', 'portability', 'rectification'];
const REQUEST_STATUSES = ['pending', 'confirmed', 'processing', 'completed', 'rejected'];

const list = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

export async function up(knex: Knex) {
  await knex.raw('ALTER TABLE gdpr_data_requests ALTER COLUMN email DROP NOT NULL');
  await knex.schema.alterTable('gdpr_data_requests', (t) => {
    t.string('email_hash', 64).comment('SHA-256 of the lower-case email; kept when the email is erased');
    t.string('ip_address', 45).comment('truncated, like every stored address');
    t.text('user_agent');
    t.string('confirm_token_hash', 64).unique().comment('SHA-256 of the token in the confirmation link');
    t.timestamp('confirm_expires_at', { useTz: true });
    t.timestamp('confirmed_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('erased_at', { useTz: true }).comment('deletion requests: when the data was erased');
    t.index(['email_hash']);
  });
  await knex.raw(`UPDATE gdpr_data_requests SET email_hash = encode(sha256(convert_to(lower(email), 'UTF8')), 'hex')`);
  await knex.raw(`
    ALTER TABLE gdpr_data_requests
      ADD CONSTRAINT gdpr_data_requests_request_type_check CHECK (request_type IN (${list(REQUEST_TYPES)})),
      ADD CONSTRAINT gdpr_data_requests_status_check CHECK (status IN (${list(REQUEST_STATUSES)}))
  `);

  await knex.raw('ALTER TABLE gdpr_consents ALTER COLUMN email DROP NOT NULL');
  await knex.schema.alterTable('gdpr_consents', (t) => {
    t.string('email_hash', 64).comment('SHA-256 of the lower-case email; the proof stays findable after erasure');
    t.index(['email_hash']);
  });
  await knex.raw(`UPDATE gdpr_consents SET email_hash = encode(sha256(convert_to(lower(email), 'UTF8')), 'hex')`);

  // Rows stored before this migration have no recorded version: left empty, not guessed.
  await knex.schema.alterTable('cookie_consents', (t) => {
    t.text('consent_version');
    t.string('consent_text_hash', 64).comment('SHA-256 of the banner and panel texts shown');
    // The retention job deletes old choices in batches by time.
    t.index(['consent_timestamp']);
  });

  // Consent proof is append-only: its facts never change. Erasure may blank the identity
  // (email, address, user agent), and the lead link goes when the lead is erased.
  await knex.raw(`
    CREATE FUNCTION refuse_consent_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% is append-only: a recorded consent cannot be changed', TG_TABLE_NAME;
    END
    $$
  `);
  await knex.raw(`
    CREATE TRIGGER gdpr_consents_append_only BEFORE UPDATE ON gdpr_consents FOR EACH ROW
    WHEN (OLD.consent_type IS DISTINCT FROM NEW.consent_type
      OR OLD.consented IS DISTINCT FROM NEW.consented
      OR OLD.consent_version IS DISTINCT FROM NEW.consent_version
      OR OLD.consent_text_hash IS DISTINCT FROM NEW.consent_text_hash
      OR OLD.timestamp IS DISTINCT FROM NEW.timestamp)
    EXECUTE FUNCTION refuse_consent_change()
  `);
  await knex.raw(`
    CREATE TRIGGER cookie_consents_append_only BEFORE UPDATE ON cookie_consents FOR EACH ROW
    WHEN (OLD.session_id IS DISTINCT FROM NEW.session_id
      OR OLD.essential IS DISTINCT FROM NEW.essential
      OR OLD.analytics IS DISTINCT FROM NEW.analytics
      OR OLD.marketing IS DISTINCT FROM NEW.marketing
      OR OLD.preferences IS DISTINCT FROM NEW.preferences
      OR OLD.consent_timestamp IS DISTINCT FROM NEW.consent_timestamp
      OR OLD.consent_version IS DISTINCT FROM NEW.consent_version
      OR OLD.consent_text_hash IS DISTINCT FROM NEW.consent_text_hash)
    EXECUTE FUNCTION refuse_consent_change()
  `);

  // lead_id becomes NULL when the lead is erased; the lead.deleted event still names it.
  await knex.schema.alterTable('crm_deliveries', (t) => {
    t.integer('subject_lead_id').comment('the lead the event is about, kept after the lead is erased');
    t.index(['subject_lead_id']);
  });

  await knex.schema.alterTable('email_messages', (t) => {
    t.integer('data_request_id').references('gdpr_data_requests.id').onDelete('CASCADE');
    t.unique(['data_request_id', 'kind']);
  });

  await knex.schema.createTable('gdpr_exports', (t) => {
    t.increments('id');
    t.integer('data_request_id').notNullable().unique().references('gdpr_data_requests.id').onDelete('CASCADE');
    t.text('json_body').notNullable();
    t.text('csv_body').notNullable();
    t.string('token_hash', 64).unique().comment('SHA-256 of the token in the emailed link');
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('download_count').notNullable().defaultTo(0);
    t.timestamp('last_downloaded_at', { useTz: true });
    t.index(['expires_at']);
  });

  // What was erased, when and why: ids and counts only, never the data itself.
  await knex.schema.createTable('gdpr_erasures', (t) => {
    t.bigIncrements('id');
    t.integer('data_request_id').references('gdpr_data_requests.id').onDelete('SET NULL');
    t.text('reason').notNullable().checkIn(['request', 'retention']);
    t.string('email_hash', 64);
    t.specificType('lead_ids', 'integer[]').notNullable();
    t.jsonb('erased_rows').notNullable();
    t.timestamp('erased_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['erased_at']);
  });

  // Leads due for the retention notice.
  await knex.raw(
    'CREATE INDEX ebook_requests_retention_notice_idx ON ebook_requests (created_at) WHERE NOT data_retention_notified',
  );
}

export async function down(knex: Knex) {
  await knex.raw('DROP INDEX ebook_requests_retention_notice_idx');
  await knex.schema.dropTable('gdpr_erasures');
  await knex.schema.dropTable('gdpr_exports');
  await knex.schema.alterTable('email_messages', (t) => {
    t.dropUnique(['data_request_id', 'kind']);
    t.dropColumn('data_request_id');
  });
  await knex.schema.alterTable('crm_deliveries', (t) => {
    t.dropIndex(['subject_lead_id']);
    t.dropColumn('subject_lead_id');
  });
  await knex.raw('DROP TRIGGER cookie_consents_append_only ON cookie_consents');
  await knex.raw('DROP TRIGGER gdpr_consents_append_only ON gdpr_consents');
  await knex.raw('DROP FUNCTION refuse_consent_change()');
  await knex.schema.alterTable('cookie_consents', (t) => {
    t.dropIndex(['consent_timestamp']);
    t.dropColumn('consent_text_hash');
    t.dropColumn('consent_version');
  });
  await knex.raw(`UPDATE gdpr_consents SET email = '' WHERE email IS NULL`);
  await knex.schema.alterTable('gdpr_consents', (t) => {
    t.dropIndex(['email_hash']);
    t.dropColumn('email_hash');
  });
  await knex.raw('ALTER TABLE gdpr_consents ALTER COLUMN email SET NOT NULL');
  await knex.raw(`
    ALTER TABLE gdpr_data_requests
      DROP CONSTRAINT gdpr_data_requests_status_check,
      DROP CONSTRAINT gdpr_data_requests_request_type_check
  `);
  await knex.raw(`UPDATE gdpr_data_requests SET email = '' WHERE email IS NULL`);
  await knex.schema.alterTable('gdpr_data_requests', (t) => {
    t.dropIndex(['email_hash']);
    t.dropUnique(['confirm_token_hash']);
    t.dropColumn('email_hash');
    t.dropColumn('ip_address');
    t.dropColumn('user_agent');
    t.dropColumn('confirm_token_hash');
    t.dropColumn('confirm_expires_at');
    t.dropColumn('confirmed_at');
    t.dropColumn('completed_at');
    t.dropColumn('erased_at');
  });
  await knex.raw('ALTER TABLE gdpr_data_requests ALTER COLUMN email SET NOT NULL');
}
