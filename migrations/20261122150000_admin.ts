/**
 * The admin area: an append-only audit log of logins and admin actions, the last login of
 * each user, and indexes for the leads table's filters.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('admin_audit_log', (t) => {
    t.bigIncrements('id');
    t.integer('user_id').references('users.id').onDelete('SET NULL');
    /** Kept as typed, also for failed logins of unknown users. */
    t.text('username').notNullable();
    t.text('action').notNullable();
    t.text('target_type');
    t.text('target_id');
    t.jsonb('details');
    t.string('ip_address', 45);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
    t.index(['user_id', 'created_at']);
  });
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('last_login_at', { useTz: true });
  });
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.index(['landing_path', 'created_at']);
    t.index(['utm_source', 'created_at']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.dropIndex(['landing_path', 'created_at']);
    t.dropIndex(['utm_source', 'created_at']);
  });
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('last_login_at');
  });
  await knex.schema.dropTable('admin_audit_log');
}
