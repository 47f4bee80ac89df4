/**
 * Two low findings of issue 12 (decision 029):
 * - a phone that asks again within 24 h is stored as its own lead, linked to the lead that
 *   opened the phone's window (`repeat_of`), instead of being dropped;
 * - download links are stored as the SHA-256 of their token, never the token: a copy of
 *   the database does not hold working links. Existing tokens are hashed in place, so
 *   links already sent keep working;
 * - a download is counted once per link and visitor: guide_downloads gets the visitor's
 *   hash (truncated address and user agent, as stored with a lead), unique per lead.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.integer('repeat_of')
      .references('ebook_requests.id')
      .onDelete('SET NULL')
      .comment('a repeat within 24 h of this lead (which opened the phone window): no SMS of its own');
    t.index(['repeat_of']);
  });

  await knex.schema.alterTable('download_tokens', (t) => {
    t.string('token_hash', 64).unique().comment('SHA-256 (hex) of the token in the link; null until the link is sent');
  });
  await knex.raw(`UPDATE download_tokens SET token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex')`);
  await knex.schema.alterTable('download_tokens', (t) => {
    t.dropColumn('token');
  });

  await knex.schema.alterTable('guide_downloads', (t) => {
    t.string('visitor_hash', 64).comment('SHA-256 of the truncated address and user agent; null before counting per visitor');
    t.unique(['lead_id', 'visitor_hash']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('guide_downloads', (t) => {
    t.dropUnique(['lead_id', 'visitor_hash']);
    t.dropColumn('visitor_hash');
  });

  // A hash cannot give its token back: links sent before the rollback stop working.
  await knex.schema.alterTable('download_tokens', (t) => {
    t.text('token').unique();
  });
  await knex.raw(`UPDATE download_tokens SET token = coalesce(token_hash, md5(random()::text || id::text))`);
  await knex.raw('ALTER TABLE download_tokens ALTER COLUMN token SET NOT NULL');
  await knex.schema.alterTable('download_tokens', (t) => {
    t.dropColumn('token_hash');
  });

  await knex.schema.alterTable('ebook_requests', (t) => {
    t.dropIndex(['repeat_of']);
    t.dropColumn('repeat_of');
  });
}
