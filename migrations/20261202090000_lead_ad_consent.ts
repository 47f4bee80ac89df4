/**
 * Ad data only with consent (issue 27, decision 049): each lead records the ad-consent state
 * in force when it was sent, as Google Consent Mode v2's `ad_user_data` and
 * `ad_personalization` ('granted' / 'denied'), both derived from the marketing cookie choice
 * the API found recorded for the visitor. Leads stored before, and leads without a recorded
 * choice, are 'denied': nobody was asked.
 */
import type { Knex } from 'knex';

const COLUMNS = ['ad_user_data', 'ad_personalization'] as const;

export async function up(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    for (const column of COLUMNS) {
      t.text(column)
        .notNullable()
        .defaultTo('denied')
        .comment(`Consent Mode v2 ${column} at submission: granted only with a recorded marketing cookie consent`);
    }
  });
  for (const column of COLUMNS) {
    await knex.raw(`ALTER TABLE ebook_requests ADD CONSTRAINT ebook_requests_${column}_check CHECK (${column} IN ('granted', 'denied'))`);
  }
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    for (const column of COLUMNS) t.dropColumn(column);
  });
}
