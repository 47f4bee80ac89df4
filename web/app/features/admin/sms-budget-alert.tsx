import { useId, useRef, useState } from 'react';
import { smsBudgetMessages as t } from '@guida/shared/messages';
import type { SmsBudgetOverview } from '@guida/shared/schemas/admin';
import { SMS_BUDGET_RELEASE_URL, SMS_BUDGET_URL, useAdminAction, useSmsBudget } from './admin-api';

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
  const release = useAdminAction((queryUrl) => queryUrl === SMS_BUDGET_URL || queryUrl.startsWith('/api/admin/leads'));
  const [confirming, setConfirming] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  const data = overview.data;
  if (!data || (!data.tripped && data.held.count === 0)) return null;
  const close = () => {
    setConfirming(false);
    trigger.current?.focus();
  };
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
          <button
            ref={trigger}
            type="button"
            className="btn-secondary"
            aria-expanded={confirming}
            aria-disabled={release.isPending}
            onClick={() => {
              if (!release.isPending) setConfirming(true);
            }}
          >
            {release.isPending ? 'Invio in corso...' : t.release}
          </button>
          {confirming ? (
            <div role="group" aria-labelledby={questionId} className="mt-2 max-w-md rounded-md border border-red-400 bg-white p-3">
              <p id={questionId} className="text-sm text-slate-900">
                {t.releaseConfirm(data.held.count)}
              </p>
              <div className="mt-3 flex gap-2">
                <button
                  type="button"
                  className="btn-primary"
                  autoFocus
                  onClick={() => {
                    release.mutate(SMS_BUDGET_RELEASE_URL);
                    close();
                  }}
                >
                  Conferma
                </button>
                <button type="button" className="btn-secondary" onClick={close}>
                  Annulla
                </button>
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
