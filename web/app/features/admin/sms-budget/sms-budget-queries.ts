import type { SmsBudgetOverview } from '@guida/shared/schemas/admin';
import { POLL_MS, useAdminQuery } from '../admin-api';

const SMS_BUDGET_URL = '/api/admin/sms-budget';
export const SMS_BUDGET_RELEASE_URL = `${SMS_BUDGET_URL}/release`;
export const refreshesBudget = (queryUrl: string) => queryUrl === SMS_BUDGET_URL;

/** The SMS budgets and the held SMS, polled like the queues (the alert on every tab). */
export function useSmsBudget() {
  return useAdminQuery<SmsBudgetOverview>(SMS_BUDGET_URL, { refetchInterval: POLL_MS });
}
