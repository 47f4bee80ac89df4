/**
 * Worker heartbeats (decision 058): one row per worker process, its `last_seen` moved on
 * every few seconds while it runs and set a last time, with `stopped_at`, when it stops
 * cleanly. The API reads the newest `last_seen` to open the no-worker alert, which must
 * not depend on a worker, and to answer the heartbeat age on /metrics.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('worker_heartbeats', (t) => {
    t.uuid('id').primary();
    t.text('host').notNullable();
    t.integer('pid').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('last_seen', { useTz: true }).notNullable();
    t.timestamp('stopped_at', { useTz: true });
    t.index(['last_seen']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('worker_heartbeats');
}
