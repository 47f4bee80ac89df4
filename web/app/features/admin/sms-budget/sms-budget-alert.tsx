import { smsBudgetMessages as t } from '@guida/shared/messages';
import type { SmsBudgetOverview } from '@guida/shared/schemas/admin';
import { refreshesLeads } from '../leads/lead-queries';
import { ConfirmAction } from '../ui/confirm-action';
import { SMS_BUDGET_RELEASE_URL, refreshesBudget, useSmsBudget } from './sms-budget-queries';

/** Released SMS leave the held count and change their leads' status. */
const refreshesBudgetAndLeads = (queryUrl: string) => refreshesBudget(queryUrl) || refreshesLeads(queryUrl);

type BudgetEntry = SmsBudgetOverview['budgets'][number];

function budgetLabel(entry: BudgetEntry) {
  const scope =
    entry.scope === 'global' ? t.scopeGlobal : entry.scope === 'country' ? t.scopeCountry(entry.key ?? '') : t.scopeBlock(entry.key ?? '');
  return `${scope}, ${entry.window === 'hour' ? t.windowHour : t.windowDay}: ${entry.count} / ${entry.limit}`;
}

/**
 * The red alert above every tab while an SMS budget is reached or SMS are held (decision
 * 025): which budget, how many SMS wait, and "Rilascia" (after a confirmation) to send
 * them anyway. Nothing shows while every budget has room and nothing is held.
 */
export function SmsBudgetAlert() {
  const overview = useSmsBudget();
  const data = overview.data;
  if (!data || (!data.tripped && data.held.count === 0)) return null;
  const tripped = data.budgets.filter((entry) => entry.tripped);
  return (
    <section role="alert" aria-label={t.alertTitle} className="mb-4 rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900">
      <h2 className="text-lg font-bold">{t.alertTitle}</h2>
      {data.held.count > 0 ? <p className="mt-1 font-semibold">{t.alertHeld(data.held.count)}</p> : null}
      {tripped.length > 0 ? (
        <div className="mt-1 text-sm">
          <p>{t.alertTripped}</p>
          <ul className="list-disc pl-5">
            {tripped.map((entry) => (
              <li key={`${entry.scope}-${entry.key}-${entry.window}`}>{budgetLabel(entry)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="mt-1 text-sm">{t.alertResume}</p>
      {data.held.count > 0 ? (
        <div className="mt-3">
          <ConfirmAction
            label={t.release}
            question={t.releaseConfirm(data.held.count)}
            url={SMS_BUDGET_RELEASE_URL}
            refreshes={refreshesBudgetAndLeads}
            danger
          />
        </div>
      ) : null}
    </section>
  );
}
