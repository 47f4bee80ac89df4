import type { HeldSmsCount, HeldSmsCriteriaQuery, SmsBudgetOverview } from '@guida/shared/schemas/admin';
import { adminGetJson, POLL_MS, useAdminQuery } from '../admin-api';

const SMS_BUDGET_URL = '/api/admin/sms-budget';
export const SMS_BUDGET_RELEASE_URL = `${SMS_BUDGET_URL}/release`;
export const SMS_BUDGET_DISCARD_URL = `${SMS_BUDGET_URL}/discard`;
export const refreshesBudget = (queryUrl: string) => queryUrl === SMS_BUDGET_URL;

/** The SMS budgets and the held SMS, polled like the queues (the alert on every tab). */
export function useSmsBudget() {
  return useAdminQuery<SmsBudgetOverview>(SMS_BUDGET_URL, { refetchInterval: POLL_MS });
}

/** The criteria as the API reads them: only those given, as text. */
export function criteriaBody(criteria: HeldSmsCriteriaQuery): Record<string, string | boolean> {
  return Object.fromEntries(Object.entries(criteria).filter(([, value]) => value !== undefined && value !== false)) as Record<
    string,
    string | boolean
  >;
}

/** How many held SMS a discard with `criteria` would take (asked when the admin searches, not polled). */
export function countHeldSms(criteria: HeldSmsCriteriaQuery) {
  const query = new URLSearchParams(Object.entries(criteriaBody(criteria)).map(([key, value]) => [key, String(value)]));
  return adminGetJson<HeldSmsCount>(`${SMS_BUDGET_URL}/held?${query.toString()}`);
}
