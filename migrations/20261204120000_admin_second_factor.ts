/**
 * The admin's second factor (issue 28, docs/decisions/054): each admin's TOTP secret,
 * encrypted by the API with ADMIN_SECOND_FACTOR_KEY (never stored or answered in clear once
 * confirmed), the last time step a code was accepted for (each code works once), and ten
 * one-time recovery codes stored as SHA-256 digests. Deleting a user deletes both;
 * `admin:create --reset-second-factor` deletes them, so the next login enrols again.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.schema.createTable('admin_second_factors', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    /** AES-256-GCM of the base32 secret, bound to the user id: "v1.<iv>.<ciphertext+tag>" in base64url. */
    t.text('secret_ciphertext').notNullable();
    /** Null until the admin confirmed the enrolment with a first code: until then it signs nobody in. */
    t.timestamp('confirmed_at', { useTz: true });
    /** The 30-second step of the last code accepted: a code of this step or an earlier one is refused. */
    t.bigInteger('last_used_step');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('admin_recovery_codes', (t) => {
    t.bigIncrements('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    /** SHA-256 of the user id and the code (120 random bits: no slow hash needed, ASVS 6.5.2). */
    t.text('code_hash').notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'code_hash']);
  });
}

export async function down(knex: Knex) {
  await knex.schema.dropTable('admin_recovery_codes');
  await knex.schema.dropTable('admin_second_factors');
}
