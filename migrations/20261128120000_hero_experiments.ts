/**
 * Hero A/B experiments (decision 041): the variant a lead and a page view were shown, and
 * the outcome of a stopped experiment, whose winner every visitor then gets. The
 * experiments themselves are defined in code (@guida/shared/experiments).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.text('hero_variant');
  });
  await knex.schema.alterTable('page_views', (t) => {
    t.text('hero_variant');
  });
  // The experiment report counts leads per variant of a page over the experiment's dates.
  await knex.raw(
    'CREATE INDEX ebook_requests_hero_variant_idx ON ebook_requests (landing_path, created_at) WHERE hero_variant IS NOT NULL',
  );
  await knex.schema.createTable('hero_experiment_outcomes', (t) => {
    t.text('experiment_id').primary();
    t.text('winner_variant').notNullable();
    t.timestamp('stopped_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('stopped_by').references('users.id').onDelete('SET NULL');
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('hero_experiment_outcomes');
  await knex.raw('DROP INDEX ebook_requests_hero_variant_idx');
  await knex.schema.alterTable('page_views', (t) => {
    t.dropColumn('hero_variant');
  });
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.dropColumn('hero_variant');
  });
}
