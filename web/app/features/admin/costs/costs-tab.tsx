import { AD_SPEND_PERIODS, type AdSpendList } from '@guida/shared/schemas/admin-costs';
import { Field } from '../../../components/ui/form';
import { EMPTY_VALUE, formatDateTime, formatDay, formatMoney, formatNumber, sourceLabel } from '../ui/admin-format';
import { DataTable, FOCUS_RING, Section } from '../ui/admin-ui';
import { QueryContent } from '../ui/query-state';
import { useUrlValues } from '../ui/url-values';
import { AdSpendImportForm } from './ad-spend-import-form';
import { useAdSpend } from './cost-queries';

const PERIOD_NAMES = ['days'] as const;
const DEFAULT_PERIOD = '30';
type Period = (typeof AD_SPEND_PERIODS)[number];
const PERIOD_LABELS: Record<Period, string> = { '30': 'Ultimi 30 giorni', '90': 'Ultimi 90 giorni', '365': 'Ultimi 365 giorni' };
const isPeriod = (value: string): value is Period => (AD_SPEND_PERIODS as readonly string[]).includes(value);

const EXAMPLE = `data;utm_source;utm_campaign;importo;valuta
26/11/2026;google;black-friday;1.234,56;EUR
26/11/2026;facebook;black-friday;480,00;EUR`;

/**
 * The Costs tab (decision 060): the import of what the ad platforms were paid, per day and
 * campaign, and the spend imported so far. What the leads cost is on the overview.
 */
export function CostsTab() {
  const [values, update] = useUrlValues(PERIOD_NAMES, 'costs_');
  const days = isPeriod(values.days) ? values.days : DEFAULT_PERIOD;
  const spend = useAdSpend(days);
  return (
    <div className="flex flex-col gap-4">
      <Section title="Importa la spesa pubblicitaria">
        <div className="mb-4 flex flex-col gap-2 text-sm text-slate-800">
          <p>
            Un file CSV con una riga per giorno e campagna, come lo esportano Google Ads e Meta o lo salva Excel. Colonne (in
            qualsiasi ordine, le altre sono ignorate): <strong>data</strong> (GG/MM/AAAA o AAAA-MM-GG), <strong>utm_source</strong>,{' '}
            <strong>utm_campaign</strong> (come nei link degli annunci; vuota per la spesa di tutta la sorgente),{' '}
            <strong>importo</strong> (1.234,56 o 1234.56; un punto seguito da tre cifre, come 1.234, è ambiguo e va scritto 1.234,00
            oppure 1,234) e, facoltativa, <strong>valuta</strong> (EUR se manca). Separatore «;» o «,», intestazione obbligatoria
            (anche Data, Sorgente, Campagna, Importo, Valuta).
          </p>
          <p>
            La spesa di tutta la sorgente (utm_campaign vuota) compare nella panoramica in una riga «(intera sorgente)», con tutti
            i lead e tutta la spesa di quella sorgente, e non nelle righe delle campagne: per uno stesso giorno importa la spesa di
            una sorgente per campagna oppure per intero, non in entrambi i modi.
          </p>
          <p>
            Importare di nuovo lo stesso giorno e la stessa campagna sostituisce l’importo: per correggere una riga basta
            ricaricarla, per annullarla importarla con importo 0. Le spese compaiono nella panoramica, sezione «Costi per campagna».
          </p>
          <details>
            <summary className={`cursor-pointer rounded-sm font-semibold ${FOCUS_RING}`}>Esempio di file</summary>
            <pre className="mt-2 overflow-x-auto rounded bg-slate-100 p-2 text-xs">{EXAMPLE}</pre>
          </details>
        </div>
        <AdSpendImportForm />
      </Section>

      <Section
        title="Spesa importata"
        actions={
          <Field
            as="select"
            size="sm"
            label="Periodo"
            value={days}
            onChange={(event) => update({ days: event.target.value === DEFAULT_PERIOD ? '' : event.target.value })}
          >
            {AD_SPEND_PERIODS.map((period) => (
              <option key={period} value={period}>
                {PERIOD_LABELS[period]}
              </option>
            ))}
          </Field>
        }
      >
        <QueryContent query={spend} loadingLabel="Caricamento della spesa importata">
          {(data) => <SpendTable data={data} />}
        </QueryContent>
      </Section>
    </div>
  );
}

function SpendTable({ data }: { data: AdSpendList }) {
  return (
    <>
      <DataTable
        caption="Spesa pubblicitaria importata per giorno e campagna"
        columns={[
          { label: 'Giorno' },
          { label: 'utm_source' },
          { label: 'utm_campaign' },
          { label: 'Importo', numeric: true },
          { label: 'Importata il' },
          { label: 'Da' },
        ]}
        rows={data.rows.map((row) => ({
          key: `${row.day}|${row.utmSource}|${row.utmCampaign}`,
          cells: [
            formatDay(row.day),
            sourceLabel(row.utmSource),
            row.utmCampaign || EMPTY_VALUE,
            formatMoney(row),
            formatDateTime(row.importedAt),
            row.importedBy ?? EMPTY_VALUE,
          ],
        }))}
        empty="Nessuna spesa importata nel periodo."
      />
      {data.more > 0 ? (
        <p className="mt-2 text-sm text-slate-700">Altre {formatNumber(data.more)} righe nel periodo non sono mostrate.</p>
      ) : null}
    </>
  );
}
