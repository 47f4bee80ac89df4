/**
 * Every entity of the original site's spec (snake_case columns, same defaults) plus what
 * delivering the guide needs: SMS, CRM and email delivery rows, download tokens, the
 * per-phone 24 h window and the development outbox.
 */
import type { Knex } from 'knex';

// Copied, not imported from shared: a migration must not change when the code does.
const SMS_STATUSES = ['pending', 'retrying', 'sent', 'delivered', 'undelivered', 'failed', 'skipped'];
const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'skipped'];

export async function up(knex: Knex) {
  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    t.text('username').notNullable().unique();
    t.text('password').notNullable();
    t.boolean('is_admin').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('ebook_requests', (t) => {
    t.increments('id');
    t.text('nome').notNullable();
    t.text('cognome').notNullable();
    t.text('email').notNullable();
    t.text('telefono').notNullable().comment('E.164');
    t.text('ebook_type').notNullable().defaultTo('general');
    t.text('source').notNullable().defaultTo('direct');
    t.text('utm_source');
    t.text('utm_medium');
    t.text('utm_campaign');
    t.boolean('gdpr_consent').notNullable().defaultTo(false);
    t.boolean('marketing_consent').notNullable().defaultTo(false);
    t.timestamp('consent_timestamp', { useTz: true });
    t.string('ip_address', 45).comment('truncated: /24 for IPv4, /48 for IPv6');
    t.text('user_agent');
    t.text('consent_version').notNullable().defaultTo('1.0');
    t.boolean('data_retention_notified').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('country', 2).comment('IT or CH, from the phone number');
    t.text('landing_path');
    t.index(['created_at']);
    t.index(['email']);
    t.index(['telefono']);
  });

  await knex.schema.createTable('gdpr_consents', (t) => {
    t.bigIncrements('id');
    t.text('email').notNullable();
    t.text('consent_type').notNullable();
    t.boolean('consented').notNullable();
    t.text('consent_version').notNullable();
    t.string('ip_address', 45);
    t.text('user_agent');
    t.timestamp('timestamp', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('lead_id').references('ebook_requests.id').onDelete('SET NULL');
    t.string('consent_text_hash', 64).comment('SHA-256 of the consent text shown');
    t.index(['email']);
    t.index(['lead_id']);
  });

  await knex.schema.createTable('gdpr_data_requests', (t) => {
    t.increments('id');
    t.text('email').notNullable();
    t.text('request_type').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.jsonb('request_data');
    t.timestamp('submitted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('processed_at', { useTz: true });
    t.integer('processed_by').references('users.id').onDelete('SET NULL');
    t.text('notes');
    t.index(['status', 'submitted_at']);
    t.index(['email']);
  });

  await knex.schema.createTable('cookie_consents', (t) => {
    t.bigIncrements('id');
    t.string('session_id', 255).notNullable();
    t.boolean('essential').notNullable().defaultTo(true);
    t.boolean('analytics').notNullable().defaultTo(false);
    t.boolean('marketing').notNullable().defaultTo(false);
    t.boolean('preferences').notNullable().defaultTo(false);
    t.timestamp('consent_timestamp', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('ip_address', 45);
    t.text('user_agent');
    t.index(['session_id', 'consent_timestamp']);
  });

  await knex.schema.createTable('page_views', (t) => {
    t.bigIncrements('id');
    t.string('session_id', 255).notNullable();
    t.text('path').notNullable();
    t.text('referrer');
    t.text('user_agent');
    t.string('ip_address', 45);
    t.text('country');
    t.text('city');
    t.text('device');
    t.text('browser');
    t.text('os');
    t.text('screen_resolution');
    t.text('language');
    t.timestamp('timestamp', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['timestamp']);
  });

  await knex.schema.createTable('form_interactions', (t) => {
    t.bigIncrements('id');
    t.string('session_id', 255).notNullable();
    t.text('action').notNullable();
    t.text('field_name');
    t.text('error_message');
    t.integer('time_on_page');
    t.integer('scroll_depth');
    t.timestamp('timestamp', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['timestamp']);
  });

  await knex.schema.createTable('section_views', (t) => {
    t.bigIncrements('id');
    t.string('session_id', 255).notNullable();
    t.text('section').notNullable();
    t.integer('time_spent');
    t.timestamp('timestamp', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['timestamp']);
  });

  await knex.schema.createTable('conversion_funnel', (t) => {
    t.bigIncrements('id');
    t.string('session_id', 255).notNullable();
    t.text('step').notNullable();
    t.jsonb('metadata');
    t.timestamp('timestamp', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['timestamp']);
  });

  // One row per phone: the lead that opened its 24 h window. INSERT ... ON CONFLICT on
  // this key is what makes "no second SMS within 24 h" hold under concurrent requests.
  await knex.schema.createTable('recent_phone_requests', (t) => {
    t.text('telefono').primary();
    t.integer('lead_id').notNullable().references('ebook_requests.id').onDelete('CASCADE');
    t.timestamp('requested_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['requested_at']);
  });

  await knex.schema.createTable('download_tokens', (t) => {
    t.increments('id');
    t.integer('lead_id').notNullable().unique().references('ebook_requests.id').onDelete('CASCADE');
    t.text('token').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('first_downloaded_at', { useTz: true });
    t.timestamp('last_downloaded_at', { useTz: true });
    t.integer('download_count').notNullable().defaultTo(0);
  });

  await knex.schema.createTable('guide_downloads', (t) => {
    t.bigIncrements('id');
    t.integer('lead_id').notNullable().references('ebook_requests.id').onDelete('CASCADE');
    t.timestamp('downloaded_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['downloaded_at']);
    t.index(['lead_id']);
  });

  await knex.schema.createTable('sms_messages', (t) => {
    t.increments('id');
    t.integer('lead_id').notNullable().unique().references('ebook_requests.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('pending').checkIn(SMS_STATUSES);
    t.text('provider');
    t.text('provider_message_id').unique();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('error_code');
    t.text('error_message');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('failed_at', { useTz: true });
    t.index(['created_at']);
  });
  await knex.raw(
    `CREATE INDEX sms_messages_unsent_idx ON sms_messages (updated_at) WHERE status IN ('pending', 'retrying')`,
  );

  await knex.schema.createTable('sms_events', (t) => {
    t.bigIncrements('id');
    t.integer('sms_message_id').notNullable().references('sms_messages.id').onDelete('CASCADE');
    t.text('status').notNullable();
    t.text('provider_status');
    t.text('error_code');
    t.text('error_message');
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['sms_message_id', 'occurred_at']);
  });

  await knex.schema.createTable('crm_deliveries', (t) => {
    t.increments('id');
    // Kept when the lead is erased, so the lead.deleted event still goes out.
    t.integer('lead_id').references('ebook_requests.id').onDelete('SET NULL');
    t.text('event').notNullable();
    t.text('status').notNullable().defaultTo('pending').checkIn(DELIVERY_STATUSES);
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('response_status');
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true });
    t.index(['lead_id']);
  });
  await knex.raw(
    `CREATE UNIQUE INDEX crm_deliveries_lead_created_key ON crm_deliveries (lead_id) WHERE event = 'lead.created'`,
  );
  await knex.raw(
    `CREATE INDEX crm_deliveries_unsent_idx ON crm_deliveries (updated_at) WHERE status IN ('pending', 'retrying')`,
  );

  await knex.schema.createTable('email_messages', (t) => {
    t.increments('id');
    t.integer('lead_id').references('ebook_requests.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('status').notNullable().defaultTo('pending').checkIn(DELIVERY_STATUSES);
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.text('provider_message_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true });
    t.unique(['lead_id', 'kind']);
  });
  await knex.raw(
    `CREATE INDEX email_messages_unsent_idx ON email_messages (updated_at) WHERE status IN ('pending', 'retrying')`,
  );

  // Where the outbox providers put messages instead of sending them (development).
  await knex.schema.createTable('outbox_messages', (t) => {
    t.bigIncrements('id');
    t.text('channel').notNullable().checkIn(['sms', 'email']);
    t.text('recipient').notNullable();
    t.text('subject');
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex) {
  for (const table of [
    'outbox_messages',
    'email_messages',
    'crm_deliveries',
    'sms_events',
    'sms_messages',
    'guide_downloads',
    'download_tokens',
    'recent_phone_requests',
    'conversion_funnel',
    'section_views',
    'form_interactions',
    'page_views',
    'cookie_consents',
    'gdpr_data_requests',
    'gdpr_consents',
    'ebook_requests',
    'users',
  ]) {
    await knex.schema.dropTable(table);
  }
}
