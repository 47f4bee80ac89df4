import { dateRangeQuerySchema, type ConsentReport } from '@guida/shared/schemas/admin';
import { formatNumber, formatPercent } from '../ui/admin-format';
import { DataTable, Section } from '../ui/admin-ui';
import { DATE_RANGE_FIELDS, FilterForm } from '../ui/filter-form';
import { ErrorNotice, Loading } from '../ui/query-state';
import { useUrlValues } from '../ui/url-values';
import { useConsentReport } from './report-queries';

const FILTER_NAMES = dateRangeQuerySchema.keyof().options;

const CATEGORIES = [
  ['analytics', 'Cookie analitici'],
  ['marketing', 'Cookie di marketing'],
  ['preferences', 'Cookie di preferenza'],
] as const;

/** How many visitors accept each cookie category, over a period kept in the URL. */
export function ConsentRates() {
  const [values, update] = useUrlValues(FILTER_NAMES, 'consensi_');
  const report = useConsentReport(values);
  return (
    <>
      <FilterForm label="Periodo dei consensi" schema={dateRangeQuerySchema} fields={DATE_RANGE_FIELDS} values={values} onApply={update} />
      <Section title="Consensi ai cookie">
        {report.isPending ? (
          <Loading label="Caricamento dei consensi" />
        ) : report.data === undefined ? (
          <ErrorNotice error={report.error} onRetry={() => void report.refetch()} />
        ) : (
          <ConsentRatesTable report={report.data} />
        )}
      </Section>
    </>
  );
}

function ConsentRatesTable({ report }: { report: ConsentReport }) {
  if (report.choices === 0) return <p className="text-sm text-slate-700">Nessuna scelta sui cookie nel periodo.</p>;
  return (
    <>
      <p className="mb-3 text-sm text-slate-700">
        {formatNumber(report.choices)} visitatori hanno fatto la loro ultima scelta nel periodo.
      </p>
      <DataTable
        caption="Percentuale di scelte che accettano ogni categoria di cookie"
        columns={[{ label: 'Categoria' }, { label: 'Accettati', numeric: true }, { label: 'Percentuale', numeric: true }]}
        rows={CATEGORIES.map(([key, label]) => ({
          key,
          cells: [label, formatNumber(report[key]), formatPercent(report[key], report.choices)],
        }))}
        empty="Nessuna scelta sui cookie nel periodo."
      />
    </>
  );
}
