import type { FunnelReport } from '@guida/shared/schemas/admin';
import { useFunnelReport } from './admin-api';
import { formatDay, formatDuration, formatNumber, formatPercent, formatSeconds } from './admin-format';
import { DataTable, ErrorNotice, FilterForm, Loading, Section, TextFilter, useUrlValues } from './admin-ui';

const FILTER_NAMES = ['from', 'to', 'landingPath', 'utmSource'] as const;

type StepKey = 'landing' | 'formView' | 'formStart' | 'formSubmit' | 'success';
const STEPS: readonly (readonly [StepKey, string])[] = [
  ['landing', 'Visite alla landing'],
  ['formView', 'Modulo visualizzato'],
  ['formStart', 'Modulo iniziato'],
  ['formSubmit', 'Modulo inviato'],
  ['success', 'Richiesta riuscita'],
];

/** A step's count, with its share of the landing visits for every step after the first. */
const stepText = (row: Record<StepKey, number>, key: StepKey) =>
  key === 'landing' ? formatNumber(row.landing) : `${formatNumber(row[key])} (${formatPercent(row[key], row.landing)})`;

/** Conversion through the lead form, time on page, abandoned fields and SMS speed. */
export function FunnelTab() {
  const [values, update] = useUrlValues(FILTER_NAMES, 'funnel_');
  const report = useFunnelReport(values);
  return (
    <div className="flex flex-col gap-4">
      <FilterForm label="Filtri del funnel" names={FILTER_NAMES} values={values} onApply={update}>
        <TextFilter name="from" label="Dal giorno" type="date" defaultValue={values.from} />
        <TextFilter name="to" label="Al giorno" type="date" defaultValue={values.to} />
        <TextFilter name="landingPath" label="Pagina di atterraggio" defaultValue={values.landingPath} />
        <TextFilter name="utmSource" label="utm_source" defaultValue={values.utmSource} />
      </FilterForm>
      {report.isPending ? (
        <Loading label="Caricamento del funnel" />
      ) : report.data === undefined ? (
        <ErrorNotice error={report.error} onRetry={() => void report.refetch()} />
      ) : (
        <div aria-busy={report.isPlaceholderData} className={`flex flex-col gap-4 ${report.isPlaceholderData ? 'opacity-60' : ''}`}>
          {report.isError ? <ErrorNotice error={report.error} onRetry={() => void report.refetch()} /> : null}
          <FunnelReportView report={report.data} />
        </div>
      )}
    </div>
  );
}

function FunnelReportView({ report }: { report: FunnelReport }) {
  const totals = Object.fromEntries(
    STEPS.map(([key]) => [key, report.days.reduce((sum, row) => sum + row[key], 0)]),
  ) as Record<StepKey, number>;
  return (
    <>
      <Section title="Totali per passaggio">
        {report.days.length === 0 ? (
          <p className="text-sm text-slate-700">Nessuna visita nel periodo scelto.</p>
        ) : (
          <FunnelChart totals={totals} />
        )}
      </Section>

      <Section title="Per giorno, pagina e campagna">
        <p className="mb-2 text-sm text-slate-700">Tra parentesi la percentuale rispetto alle visite alla landing.</p>
        <DataTable
          caption="Funnel per giorno, pagina e campagna"
          columns={[
            { label: 'Giorno' },
            { label: 'Pagina' },
            { label: 'utm_source' },
            ...STEPS.map(([, label]) => ({ label, numeric: true })),
          ]}
          rows={report.days.map((row) => ({
            key: `${row.day}|${row.landingPath}|${row.utmSource}`,
            cells: [formatDay(row.day), row.landingPath, row.utmSource, ...STEPS.map(([key]) => stepText(row, key))],
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
