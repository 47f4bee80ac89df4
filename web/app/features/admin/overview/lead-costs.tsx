import type { LeadCost, LeadCosts } from '@guida/shared/schemas/admin-costs';
import { EMPTY_VALUE, formatDay, formatMoneyList, formatNumber, sourceLabel } from '../ui/admin-format';
import { DataTable, Facts, FOCUS_RING, Section } from '../ui/admin-ui';

const COST_COLUMNS = [
  { label: 'Lead', numeric: true },
  { label: 'Verificati', numeric: true },
  { label: 'Costo SMS', numeric: true },
  { label: 'Spesa pubblicitaria', numeric: true },
  { label: 'Costo per lead', numeric: true },
  { label: 'Costo per lead verificato', numeric: true },
] as const;

/** SMS prices have up to five decimals at Twilio: four shown, so a cent-fraction cost is not "0,00 €". */
const SMS_DIGITS = 4;

/** "0,1480 €", and how many SMS still wait for their price. */
function smsCostText(row: Omit<LeadCost, 'utmSource' | 'utmCampaign'>) {
  const cost = formatMoneyList(row.smsCost, SMS_DIGITS);
  return row.smsPricesPending > 0 ? `${cost} (${formatNumber(row.smsPricesPending)} in attesa del prezzo)` : cost;
}

const costCells = (row: Omit<LeadCost, 'utmSource' | 'utmCampaign'>) => [
  formatNumber(row.leads),
  formatNumber(row.verifiedLeads),
  smsCostText(row),
  formatMoneyList(row.adSpend),
  formatMoneyList(row.costPerLead),
  formatMoneyList(row.costPerVerifiedLead),
];

const campaignText = (row: LeadCost) => `${sourceLabel(row.utmSource)} / ${row.utmCampaign || EMPTY_VALUE}`;

/**
 * What the period's leads cost per campaign (decision 060): their SMS as Twilio billed them,
 * the ad spend imported in the Costs tab, and the cost per lead and per verified lead;
 * amounts in different currencies side by side, never added. Per day in a table below.
 */
export function LeadCostsSection({ costs, period }: { costs: LeadCosts; period: string }) {
  const { total } = costs;
  return (
    <Section title={`Costi per campagna — ${period}`}>
      <Facts
        label="Costi del periodo"
        items={[
          ['Lead (verificati)', `${formatNumber(total.leads)} (${formatNumber(total.verifiedLeads)})`],
          ['Costo SMS', smsCostText(total)],
          ['Spesa pubblicitaria', formatMoneyList(total.adSpend)],
          ['Costo per lead', formatMoneyList(total.costPerLead)],
          ['Costo per lead verificato', formatMoneyList(total.costPerVerifiedLead)],
        ]}
      />
      <div className="mt-3">
        <DataTable
          caption="Lead, costi e costo per lead per campagna"
          columns={[{ label: 'utm_source / utm_campaign' }, ...COST_COLUMNS]}
          rows={costs.byCampaign.map((row) => ({ key: `${row.utmSource}|${row.utmCampaign}`, cells: [campaignText(row), ...costCells(row)] }))}
          empty="Nessun lead e nessuna spesa nel periodo."
        />
      </div>
      <p className="mt-2 text-sm text-slate-700">
        Costo per lead: (spesa pubblicitaria + costo SMS) ÷ lead; per lead verificato: ÷ lead verificati. Valute diverse restano
        separate. Il costo SMS è il prezzo comunicato da Twilio (nessuno per l’outbox); la spesa si importa nella scheda «Costi».
      </p>
      <details className="mt-3">
        <summary className={`cursor-pointer rounded-sm text-sm font-semibold text-slate-800 ${FOCUS_RING}`}>Costi per giorno e campagna</summary>
        <div className="mt-2">
          <DataTable
            caption="Lead, costi e costo per lead per giorno (ora italiana) e campagna"
            columns={[{ label: 'Giorno' }, { label: 'utm_source / utm_campaign' }, ...COST_COLUMNS]}
            rows={costs.byDay.map((row) => ({
              key: `${row.day}|${row.utmSource}|${row.utmCampaign}`,
              cells: [formatDay(row.day), campaignText(row), ...costCells(row)],
            }))}
            empty="Nessun lead e nessuna spesa nel periodo."
          />
        </div>
      </details>
    </Section>
  );
}
