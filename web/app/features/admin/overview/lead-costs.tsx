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

type Figures = Omit<LeadCost, 'utmSource' | 'utmCampaign' | 'wholeSource'>;

/** "0,1480 €", and how many SMS still wait for their price. */
function smsCostText(row: Figures) {
  const cost = formatMoneyList(row.smsCost, SMS_DIGITS);
  return row.smsPricesPending > 0 ? `${cost} (${formatNumber(row.smsPricesPending)} in attesa del prezzo)` : cost;
}

const costCells = (row: Figures) => [
  formatNumber(row.leads),
  formatNumber(row.verifiedLeads),
  smsCostText(row),
  formatMoneyList(row.adSpend),
  formatMoneyList(row.costPerLead),
  formatMoneyList(row.costPerVerifiedLead),
];

/** The label of spend imported for a whole source, which no campaign's row counts. */
const WHOLE_SOURCE_LABEL = '(intera sorgente)';

const campaignText = (row: LeadCost) =>
  `${sourceLabel(row.utmSource)} / ${row.wholeSource ? WHOLE_SOURCE_LABEL : row.utmCampaign || EMPTY_VALUE}`;
const rowKey = (row: LeadCost) => `${row.utmSource}|${row.wholeSource ? '*' : row.utmCampaign}`;

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
          rows={costs.byCampaign.map((row) => ({ key: rowKey(row), cells: [campaignText(row), ...costCells(row)] }))}
          empty="Nessun lead e nessuna spesa nel periodo."
        />
      </div>
      <p className="mt-2 text-sm text-slate-700">
        Costo per lead: (spesa pubblicitaria + costo SMS) ÷ lead; per lead verificato: ÷ lead verificati. Valute diverse restano
        separate. Il costo SMS è il prezzo comunicato da Twilio (nessuno per l’outbox); la spesa si importa nella scheda «Costi».
        La spesa importata senza utm_campaign vale per tutta la sorgente: compare nella riga «{WHOLE_SOURCE_LABEL}», con tutti i
        lead e tutta la spesa di quella sorgente, e non nelle righe delle singole campagne.
      </p>
      <details className="mt-3">
        <summary className={`cursor-pointer rounded-sm text-sm font-semibold text-slate-800 ${FOCUS_RING}`}>Costi per giorno e campagna</summary>
        <div className="mt-2">
          <DataTable
            caption="Lead, costi e costo per lead per giorno (ora italiana) e campagna"
            columns={[{ label: 'Giorno' }, { label: 'utm_source / utm_campaign' }, ...COST_COLUMNS]}
            rows={costs.byDay.map((row) => ({
              key: `${row.day}|${rowKey(row)}`,
              cells: [formatDay(row.day), campaignText(row), ...costCells(row)],
            }))}
            empty="Nessun lead e nessuna spesa nel periodo."
          />
        </div>
      </details>
    </Section>
  );
}
