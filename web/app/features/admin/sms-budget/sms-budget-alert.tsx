import { useState } from 'react';
import { smsBudgetMessages as t } from '@guida/shared/messages';
import type { SmsBudgetOverview } from '@guida/shared/schemas/admin';
import { refreshesLeads } from '../leads/lead-queries';
import { ConfirmAction } from '../ui/confirm-action';
import { DiscardHeldSms } from './discard-held-sms';
import { SMS_BUDGET_RELEASE_URL, refreshesBudget, useSmsBudget } from './sms-budget-queries';

/** Released SMS leave the held count and change their leads' status. */
const refreshesBudgetAndLeads = (queryUrl: string) => refreshesBudget(queryUrl) || refreshesLeads(queryUrl);

type BudgetEntry = SmsBudgetOverview['budgets'][number];

const SCOPE_LABELS: Record<BudgetEntry['scope'], (key: string) => string> = {
  global: () => t.scopeGlobal,
  country: t.scopeCountry,
  block: t.scopeBlock,
  network: t.scopeNetwork,
  address: t.scopeAddress,
};

function budgetLabel(entry: BudgetEntry) {
  const scope = SCOPE_LABELS[entry.scope](entry.key ?? '');
  const share = entry.untrusted ? ` (${t.untrustedShare})` : '';
  return `${scope}${share}, ${entry.window === 'hour' ? t.windowHour : t.windowDay}: ${entry.count} / ${entry.limit}`;
}

/** The blocks or networks with the most held SMS. */
function HeldBy({ title, rows }: { title: string; rows: { key: string; count: number }[] }) {
  if (rows.length === 0) return null;
  return (
    <div className="text-sm">
      <p>{title}:</p>
      <ul className="list-disc pl-5">
        {rows.map((row) => (
          <li key={row.key}>
            {row.key}: {row.count}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The red alert above every tab while an SMS budget is reached or SMS are held (decisions
 * 025, 052): which budget, how many SMS wait and how many of them are trusted, the blocks
 * and networks with the most; "Rilascia solo gli affidabili" and "Rilascia tutti" (after a
 * confirmation) send them anyway, "Scarta SMS trattenuti…" ends an attack's for good.
 * Nothing shows while every budget has room and nothing is held.
 */
export function SmsBudgetAlert() {
  const overview = useSmsBudget();
  const [discarding, setDiscarding] = useState(false);
  const data = overview.data;
  if (!data || (!data.tripped && data.held.count === 0)) return null;
  const tripped = data.budgets.filter((entry) => entry.tripped);
  const { held } = data;
  return (
    <section role="alert" aria-label={t.alertTitle} className="mb-4 rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900">
      <h2 className="text-lg font-bold">{t.alertTitle}</h2>
      {held.count > 0 ? (
        <p className="mt-1 font-semibold">
          {t.alertHeld(held.count)} {t.alertHeldTrusted(held.trusted)}
        </p>
      ) : null}
      {tripped.length > 0 ? (
        <div className="mt-1 text-sm">
          <p>{t.alertTripped}</p>
          <ul className="list-disc pl-5">
            {tripped.map((entry) => (
              <li key={`${entry.scope}-${entry.key}-${entry.window}-${entry.untrusted}`}>{budgetLabel(entry)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="mt-1 text-sm">{t.alertResume}</p>
      {held.count > 0 ? (
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          <HeldBy title={t.heldByBlock} rows={held.byBlock.map((row) => ({ key: `+${row.block}…`, count: row.count }))} />
          <HeldBy title={t.heldByNetwork} rows={held.byNetwork.map((row) => ({ key: t.scopeNetwork(row.network), count: row.count }))} />
        </div>
      ) : null}
      {held.count > 0 ? (
        <div className="mt-3 flex flex-wrap items-start gap-2">
          {held.trusted > 0 ? (
            <ConfirmAction
              label={t.releaseTrusted}
              question={t.releaseTrustedConfirm(held.trusted)}
              url={SMS_BUDGET_RELEASE_URL}
              body={{ trustedOnly: true }}
              refreshes={refreshesBudgetAndLeads}
            />
          ) : null}
          <ConfirmAction
            label={t.release}
            question={t.releaseConfirm(held.count)}
            url={SMS_BUDGET_RELEASE_URL}
            refreshes={refreshesBudgetAndLeads}
            danger
          />
          <button type="button" className="btn-secondary" aria-expanded={discarding} onClick={() => setDiscarding((open) => !open)}>
            {t.discardOpen}
          </button>
        </div>
      ) : null}
      {discarding && held.count > 0 ? <DiscardHeldSms onClose={() => setDiscarding(false)} /> : null}
    </section>
  );
}
