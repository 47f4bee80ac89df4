/**
 * claim_sms_within_budgets: the claim of a new SMS within the SMS budgets (decision 025),
 * as one function the worker calls in one statement. In order: the SMS's row (a second
 * claim of the same SMS waits, then finds it gone), the budget lock every claim takes,
 * the usage of its scopes; within every budget (or released by an admin) it is counted
 * and claimed, with its timeline entry. The statement's commit frees the lock: no round
 * trip to the worker happens under it. Statuses, limits and windows come as arguments,
 * so the code keeps them.
 * Returns 'claimed', 'gone' (not claimable), or 'over' with one row per scope's usage.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex) {
  await knex.raw(`
CREATE FUNCTION claim_sms_within_budgets(
  p_sms_id bigint, p_from text[], p_to text, p_attempts int, p_exempt boolean,
  p_scopes text[], p_hour_limits int[], p_day_limits int[],
  p_hour_start timestamptz, p_day_start timestamptz, p_minute timestamptz, p_lock_key bigint)
RETURNS TABLE (outcome text, budget_scope text, sms_hour int, sms_day int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_fits boolean;
BEGIN
  PERFORM 1 FROM sms_messages m WHERE m.id = p_sms_id AND m.status = ANY(p_from) FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'gone'::text, NULL::text, NULL::int, NULL::int;
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(p_lock_key);
  -- Each statement below reads a snapshot taken after the lock: it sees every count
  -- committed by the claims before it.
  IF p_exempt THEN
    v_fits := true;
  ELSE
    SELECT NOT EXISTS (
      SELECT 1
      FROM unnest(p_scopes, p_hour_limits, p_day_limits) AS l (scope, hour_limit, day_limit)
      JOIN (
        SELECT c.scope, coalesce(sum(c.sms) FILTER (WHERE c.minute > p_hour_start), 0) AS hour, sum(c.sms) AS day
        FROM sms_budget_counts c
        WHERE c.scope = ANY(p_scopes) AND c.minute > p_day_start
        GROUP BY c.scope
      ) u ON u.scope = l.scope
      WHERE u.hour >= l.hour_limit OR u.day >= l.day_limit
    ) INTO v_fits;
  END IF;
  IF NOT v_fits THEN
    RETURN QUERY
      SELECT 'over'::text, c.scope, coalesce(sum(c.sms) FILTER (WHERE c.minute > p_hour_start), 0)::int, sum(c.sms)::int
      FROM sms_budget_counts c
      WHERE c.scope = ANY(p_scopes) AND c.minute > p_day_start
      GROUP BY c.scope;
    RETURN;
  END IF;
  INSERT INTO sms_budget_counts AS c (scope, minute, sms)
  SELECT s, p_minute, 1 FROM unnest(p_scopes) AS s
  ON CONFLICT (scope, minute) DO UPDATE SET sms = c.sms + 1;
  UPDATE sms_messages
  SET status = p_to, attempts = p_attempts, updated_at = now(), error_code = NULL, error_message = NULL
  WHERE id = p_sms_id;
  INSERT INTO sms_events (sms_message_id, status) VALUES (p_sms_id, p_to);
  RETURN QUERY SELECT 'claimed'::text, NULL::text, NULL::int, NULL::int;
END
$$
`);
}

export async function down(knex: Knex) {
  await knex.raw('DROP FUNCTION claim_sms_within_budgets');
}
