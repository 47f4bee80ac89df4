/**
 * The optional marketing consent has a text version of its own (issue 13): the lead keeps
 * the version of the marketing text it consented to, beside `consent_version` (the
 * privacy text's). Set exactly when the consent was given. Until now both form texts
 * shared one version, so leads that gave it take their `consent_version`.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.text('marketing_consent_version').comment('version of the marketing consent text; null when not given');
  });
  await knex.raw('UPDATE ebook_requests SET marketing_consent_version = consent_version WHERE marketing_consent');
  await knex.raw(`
    ALTER TABLE ebook_requests ADD CONSTRAINT ebook_requests_marketing_consent_version_check
    CHECK (marketing_consent = (marketing_consent_version IS NOT NULL))
  `);
}

export async function down(knex: Knex) {
  await knex.raw('ALTER TABLE ebook_requests DROP CONSTRAINT ebook_requests_marketing_consent_version_check');
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.dropColumn('marketing_consent_version');
  });
}
