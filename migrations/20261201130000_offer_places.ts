/**
 * A limit is a limit (issue 27, decision 047):
 * - `offer_places`: the free places taken, one row per phone, keyed by a keyed hash of its
 *   E.164 number (never the number), with when it was taken. Written in the lead's insert
 *   statement; a repeat takes no second place; an erasure or retention leaves the row
 *   (nothing in it points to the lead or the person without the key). Places taken are
 *   the rows taken since the offer's start.
 * - `offer_settings`: one row, the offer (start, end, cap) last recorded in the audit log,
 *   and the row capped lead intake locks so that concurrent batches never overshoot the cap.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('offer_places', (t) => {
    t.binary('phone_key').primary().comment('HMAC-SHA256 of the E.164 phone, key derived from SESSION_SECRET');
    t.timestamp('taken_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['taken_at']);
  });

  await knex.schema.createTable('offer_settings', (t) => {
    t.smallint('id').primary().defaultTo(1);
    t.timestamp('starts_at', { useTz: true });
    t.timestamp('ends_at', { useTz: true });
    t.integer('places_total').notNullable().defaultTo(0).comment('FREE_PLACES_TOTAL; 0: no cap');
    t.timestamp('recorded_at', { useTz: true }).comment('when these settings were last found changed at an API start');
    t.timestamp('places_backfilled_at', { useTz: true }).comment('when the leads stored before offer_places got their places');
  });
  await knex.raw('ALTER TABLE offer_settings ADD CONSTRAINT offer_settings_single_row CHECK (id = 1)');
  await knex('offer_settings').insert({ id: 1 });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('offer_settings');
  await knex.schema.dropTable('offer_places');
}
