import { funnelQuerySchema, type FunnelReport } from '@guida/shared/schemas/admin';
import { campaignText, formatDay, formatDuration, formatNumber, formatPercent, formatSeconds, variantLabel } from '../ui/admin-format';
import { ClippedText, DataTable, Section } from '../ui/admin-ui';
import { CAMPAIGN_FIELDS, DATE_RANGE_FIELDS, FilterForm, type FilterField } from '../ui/filter-form';
import { QueryContent } from '../ui/query-state';
import { useUrlValues } from '../ui/url-values';
import { useFunnelReport } from './report-queries';

const FILTER_NAMES = funnelQuerySchema.keyof().options;
const FILTER_FIELDS: readonly FilterField<(typeof FILTER_NAMES)[number]>[] = [
  ...DATE_RANGE_FIELDS,
  { name: 'landingPath', label: 'Pagina di atterraggio' },
  { name: 'heroVariant', label: 'Variante A/B (lettera)' },
  ...CAMPAIGN_FIELDS,
];

type StepKey = 'landing' | 'formView' | 'formStart' | 'formSubmit' | 'success' | 'smsDelivered' | 'guideOpened';
/** Sessions up to the request; then its leads, verified (decision 059): SMS delivered, guide opened. */
const STEPS: readonly (readonly [StepKey, string])[] = [
  ['landing', 'Visite alla landing'],
  ['formView', 'Modulo visualizzato'],
  ['formStart', 'Modulo iniziato'],
  ['formSubmit', 'Modulo inviato'],
  ['success', 'Richiesta riuscita'],
  ['smsDelivered', 'SMS consegnato'],
  ['guideOpened', 'Guida aperta'],
];

const LEAD_STEPS_NOTE =
  'SMS consegnato e Guida aperta contano, rispettivamente, i lead del giorno (non le sessioni) il cui SMS risulta consegnato e quelli la cui guida è stata scaricata, anche in seguito; un lead inviato senza JavaScript ha una riga senza visite.';

/** A step's count, with its share of the landing visits for every step after the first. */
const stepText = (row: Record<StepKey, number>, key: StepKey) =>
  key === 'landing' ? formatNumber(row.landing) : `${formatNumber(row[key])} (${formatPercent(row[key], row.landing)})`;

/** Conversion through the lead form, time on page, abandoned fields and SMS speed. */
export function FunnelTab() {
  const [values, update] = useUrlValues(FILTER_NAMES, 'funnel_');
  const report = useFunnelReport(values);
  return (
    <div className="flex flex-col gap-4">
      <FilterForm label="Filtri del funnel" schema={funnelQuerySchema} fields={FILTER_FIELDS} values={values} onApply={update} />
      <QueryContent query={report} loadingLabel="Caricamento del funnel">
        {(data) => <FunnelReportView report={data} />}
      </QueryContent>
    </div>
  );
}

type FunnelDay = FunnelReport['days'][number];
type Split = Omit<FunnelDay, 'day' | StepKey>;

const splitKey = (row: Split) =>
  JSON.stringify([row.landingPath, row.heroVariant, row.utmSource, row.utmMedium, row.utmCampaign, row.utmTerm, row.utmContent]);

/** The days added up per page, variant and campaign, the most landings first. */
function totalsBySplit(days: readonly FunnelDay[]) {
  const totals = new Map<string, Split & Record<StepKey, number>>();
  for (const { day: _day, ...row } of days) {
    const key = splitKey(row);
    const total = totals.get(key);
    if (!total) totals.set(key, { ...row });
    else for (const [step] of STEPS) total[step] += row[step];
  }
  return [...totals.values()].sort((a, b) => b.landing - a.landing || b.success - a.success);
}

function FunnelReportView({ report }: { report: FunnelReport }) {
  const totals = Object.fromEntries(
    STEPS.map(([key]) => [key, report.days.reduce((sum, row) => sum + row[key], 0)]),
  ) as Record<StepKey, number>;
  const splitCells = (row: Split) => [
    row.landingPath,
    variantLabel(row.landingPath, row.heroVariant),
    <span key="campaign" className="block max-w-72">
      <ClippedText value={campaignText(row)} />
    </span>,
  ];
  return (
    <>
      <Section title="Totali per passaggio">
        {report.days.length === 0 ? (
          <p className="text-sm text-slate-700">Nessuna visita nel periodo scelto.</p>
        ) : (
          <FunnelChart totals={totals} />
        )}
      </Section>

      <Section title="Per pagina, variante e campagna">
        <p className="mb-2 text-sm text-slate-700">
          Il periodo intero. Conversione: richieste riuscite divise per visite alla landing. La campagna è quella
          dell’atterraggio (utm_source / utm_medium / utm_campaign, poi term e content). {LEAD_STEPS_NOTE}
        </p>
        <DataTable
          caption="Conversione per pagina, variante e campagna"
          columns={[
            { label: 'Pagina' },
            { label: 'Variante' },
            { label: 'Campagna' },
            { label: 'Visite alla landing', numeric: true },
            { label: 'Modulo iniziato', numeric: true },
            { label: 'Richiesta riuscita', numeric: true },
            { label: 'Conversione', numeric: true },
            { label: 'SMS consegnato', numeric: true },
            { label: 'Guida aperta', numeric: true },
          ]}
          rows={totalsBySplit(report.days).map((row) => ({
            key: splitKey(row),
            cells: [
              ...splitCells(row),
              formatNumber(row.landing),
              formatNumber(row.formStart),
              formatNumber(row.success),
              formatPercent(row.success, row.landing),
              formatNumber(row.smsDelivered),
              formatNumber(row.guideOpened),
            ],
          }))}
          empty="Nessun dato nel periodo scelto."
        />
      </Section>

      <Section title="Per giorno, pagina, variante e campagna">
        <p className="mb-2 text-sm text-slate-700">Tra parentesi la percentuale rispetto alle visite alla landing. {LEAD_STEPS_NOTE}</p>
        <DataTable
          caption="Funnel per giorno, pagina, variante e campagna"
          columns={[
            { label: 'Giorno' },
            { label: 'Pagina' },
            { label: 'Variante' },
            { label: 'Campagna' },
            ...STEPS.map(([, label]) => ({ label, numeric: true })),
          ]}
          rows={report.days.map((row) => ({
            key: `${row.day}|${splitKey(row)}`,
            cells: [formatDay(row.day), ...splitCells(row), ...STEPS.map(([key]) => stepText(row, key))],
          }))}
          empty="Nessun dato nel periodo scelto."
        />
      </Section>

      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="Tempo sulla pagina">
          <DataTable
            caption="Tempo sulla pagina per pagina"
            columns={[{ label: 'Pagina' }, { label: 'Uscite', numeric: true }, { label: 'Mediana', numeric: true }, { label: 'Media', numeric: true }]}
            rows={report.timeOnPage.map((page) => ({
              key: page.path,
              cells: [page.path, formatNumber(page.exits), formatDuration(page.medianSeconds), formatDuration(page.averageSeconds)],
            }))}
            empty="Nessuna uscita registrata."
          />
        </Section>

        <Section title="Campi in cui i visitatori abbandonano">
          <DataTable
            caption="Ultimo campo toccato prima di lasciare la pagina"
            columns={[{ label: 'Pagina' }, { label: 'Campo' }, { label: 'Sessioni', numeric: true }]}
            rows={report.abandonment.map((field) => ({
              key: `${field.path}|${field.fieldName}`,
              cells: [field.path, field.fieldName, formatNumber(field.sessions)],
            }))}
            empty="Nessun abbandono registrato."
          />
        </Section>
      </div>

      <Section title="Tempo di invio degli SMS">
        <DataTable
          caption="Secondi tra la richiesta e l’invio dell’SMS, per giorno"
          columns={[
            { label: 'Giorno' },
            { label: 'SMS inviati', numeric: true },
            { label: 'Mediana (p50)', numeric: true },
            { label: '95° percentile (p95)', numeric: true },
          ]}
          rows={report.timeToSms.map((day) => ({
            key: day.day,
            cells: [formatDay(day.day), formatNumber(day.sent), formatSeconds(day.p50Seconds), formatSeconds(day.p95Seconds)],
          }))}
          empty="Nessun SMS inviato nel periodo scelto."
        />
      </Section>
    </>
  );
}

const CHART_WIDTH = 720;
const LABEL_WIDTH = 180;
const VALUE_WIDTH = 130;
const ROW_HEIGHT = 36;

/** Horizontal bars of the step totals; the label carries the same figures for screen readers. */
function FunnelChart({ totals }: { totals: Record<StepKey, number> }) {
  const longest = Math.max(1, ...STEPS.map(([key]) => totals[key]));
  const summary = `Totali del funnel: ${STEPS.map(([key, label]) => `${label} ${stepText(totals, key)}`).join(', ')}.`;
  return (
    <svg
      viewBox={`0 0 ${CHART_WIDTH} ${ROW_HEIGHT * STEPS.length}`}
      role="img"
      aria-label={summary}
      className="h-auto w-full max-w-3xl"
    >
      {STEPS.map(([key, label], index) => {
        const middle = index * ROW_HEIGHT + ROW_HEIGHT / 2;
        const width = (totals[key] / longest) * (CHART_WIDTH - LABEL_WIDTH - VALUE_WIDTH);
        return (
          <g key={key}>
            <text x={0} y={middle} dominantBaseline="middle" className="fill-slate-800 text-sm">
              {label}
            </text>
            <rect x={LABEL_WIDTH} y={middle - ROW_HEIGHT / 2 + 6} width={width} height={ROW_HEIGHT - 12} rx={3} className="fill-emerald-700" />
            <text x={LABEL_WIDTH + width + 8} y={middle} dominantBaseline="middle" className="fill-slate-900 text-sm font-semibold">
              {stepText(totals, key)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
