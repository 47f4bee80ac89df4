import type { Overview, VerificationCounts } from '@guida/shared/schemas/admin';
import { formatNumber, formatPercent } from '../ui/admin-format';
import { CARD_CLASS, DataTable, Section } from '../ui/admin-ui';

/**
 * Verified leads (decision 059) on the overview: a lead is reachable once its SMS was
 * reported delivered, engaged once it downloaded its guide, verified when either holds.
 * Rates are shares of the leads of the same row.
 */

export const VERIFICATION_LABELS = {
  reachable: 'Raggiungibili (SMS consegnato)',
  engaged: 'Coinvolti (guida aperta)',
  verified: 'Verificati',
} as const satisfies Record<keyof VerificationCounts, string>;

const KEYS = Object.keys(VERIFICATION_LABELS) as (keyof VerificationCounts)[];

/** The three columns every breakdown of leads gets, after its "Lead" column. */
export const VERIFICATION_COLUMNS = KEYS.map((key) => ({ label: VERIFICATION_LABELS[key], numeric: true }));

/** "12 (40,0 %)": how many of the row's leads, and their share. */
const countAndRate = (count: number, leads: number) => `${formatNumber(count)} (${formatPercent(count, leads)})`;

export const verificationCells = (row: { leads: number } & VerificationCounts) => KEYS.map((key) => countAndRate(row[key], row.leads));

/** The columns of a breakdown after its own: visitors, leads, conversion, then the verified leads. */
export const CONVERSION_COLUMNS = [
  { label: 'Visitatori', numeric: true },
  { label: 'Lead', numeric: true },
  { label: 'Conversione', numeric: true },
  ...VERIFICATION_COLUMNS,
];

export const conversionCells = (row: { visitors: number; leads: number } & VerificationCounts) => [
  formatNumber(row.visitors),
  formatNumber(row.leads),
  formatPercent(row.leads, row.visitors),
  ...verificationCells(row),
];

export const VERIFICATION_NOTE =
  'Raggiungibili: l’SMS risulta consegnato sul telefono (conferma di Twilio). Coinvolti: la guida è stata scaricata dal link (non contano anteprime dei link né richieste parziali). Verificati: almeno una delle due. Percentuali sui lead della riga; un lead del periodo verificato in seguito conta.';

/** The period's leads and how many are verified, then the same with and without an ad click. */
export function VerifiedLeadsSection({ data, period }: { data: Overview; period: string }) {
  const total = data.verification;
  return (
    <Section title={`Lead verificati — ${period}`}>
      <dl className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4 [&>*]:min-w-0" aria-label="Lead verificati nel periodo">
        <div className={CARD_CLASS}>
          <dt className="text-sm font-medium text-slate-700">Lead nel periodo</dt>
          <dd className="text-2xl font-bold tabular-nums text-slate-900">{formatNumber(total.leads)}</dd>
        </div>
        {KEYS.map((key) => (
          <div key={key} className={CARD_CLASS}>
            <dt className="text-sm font-medium text-slate-700">{VERIFICATION_LABELS[key]}</dt>
            <dd className="text-2xl font-bold tabular-nums text-slate-900">
              {formatNumber(total[key])}
              <span className="ml-2 text-base font-semibold text-slate-700">{formatPercent(total[key], total.leads)}</span>
            </dd>
          </div>
        ))}
      </dl>
      <DataTable
        caption="Lead verificati con e senza clic su un annuncio"
        columns={[{ label: 'Provenienza' }, { label: 'Lead', numeric: true }, ...VERIFICATION_COLUMNS]}
        rows={data.byAdClick.map((row) => ({
          key: String(row.adClick),
          cells: [row.adClick ? 'Da clic su un annuncio' : 'Senza clic su un annuncio', formatNumber(row.leads), ...verificationCells(row)],
        }))}
        empty="Nessun lead nel periodo."
      />
      <p className="mt-2 text-sm text-slate-700">
        Clic su un annuncio: il lead ha un identificativo di clic (gclid, gbraid, wbraid, fbclid, msclkid o ttclid) nel
        primo o nell’ultimo atterraggio. {VERIFICATION_NOTE}
      </p>
    </Section>
  );
}
