/**
 * Campaign attribution on each lead (issue 14): the last touch of the visit in columns named
 * like the parameters (utm_term, utm_content, the click ids, referrer_host, beside the
 * existing utm_source, utm_medium and utm_campaign), and the first touch of the visit in the
 * same columns prefixed with first_. Leads stored before have no first touch recorded.
 */
import type { Knex } from 'knex';

// Copied, not imported from shared: a migration must not change when the code does.
const NEW_LAST_TOUCH = ['utm_term', 'utm_content', 'gclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'ttclid', 'referrer_host'];
const FIRST_TOUCH = ['utm_source', 'utm_medium', 'utm_campaign', ...NEW_LAST_TOUCH].map((column) => `first_${column}`);

export async function up(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    for (const column of [...NEW_LAST_TOUCH, ...FIRST_TOUCH]) t.text(column);
  });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.dropColumns(...NEW_LAST_TOUCH, ...FIRST_TOUCH);
  });
}
