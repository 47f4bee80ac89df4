/**
 * The audit log kept what admins searched for (CSV export filters) and what strangers typed
 * as a username at failed logins. New entries keep neither (decision 027); this removes
 * them from the entries already written: filters become the list of their names, unknown
 * usernames a fixed placeholder (a digest would need the session secret).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.raw(`
    UPDATE admin_audit_log
       SET details = jsonb_set(
             details, '{filters}',
             COALESCE((SELECT jsonb_agg(name ORDER BY name) FROM jsonb_object_keys(details->'filters') AS name), '[]'::jsonb))
     WHERE action = 'export_leads_csv' AND jsonb_typeof(details->'filters') = 'object'`);
  await knex('admin_audit_log')
    .where({ action: 'login_failure', user_id: null })
    .whereNot('username', 'like', 'unknown:%')
    .update({ username: 'unknown:erased' });
}

/** What was removed cannot come back. */
export async function down() {}
