import type { ConsentReport } from '@guida/shared/schemas/admin';
import { useConsentReport } from './admin-api';
import { formatNumber, formatPercent } from './admin-format';
import { DataTable, ErrorNotice, FilterForm, Loading, Section, TextFilter, useUrlValues } from './admin-ui';
import { DataRequests } from './data-requests';

const FILTER_NAMES = ['from', 'to'] as const;

const CATEGORIES = [
  ['analytics', 'Cookie analitici'],
  ['marketing', 'Cookie di marketing'],
  ['preferences', 'Cookie di preferenza'],
] as const;

/** Cookie-consent rates and the data-rights requests. */
export function ConsentsTab() {
  const [values, update] = useUrlValues(FILTER_NAMES, 'consensi_');
  const report = useConsentReport(values);
  return (
    <div className="flex flex-col gap-4">
      <FilterForm label="Periodo dei consensi" names={FILTER_NAMES} values={values} onApply={update}>
        <TextFilter name="from" label="Dal giorno" type="date" defaultValue={values.from} />
        <TextFilter name="to" label="Al giorno" type="date" defaultValue={values.to} />
      </FilterForm>
      <Section title="Consensi ai cookie">
        {report.isPending ? (
          <Loading label="Caricamento dei consensi" />
        ) : report.data === undefined ? (
          <ErrorNotice error={report.error} onRetry={() => void report.refetch()} />
        ) : (
          <ConsentRates report={report.data} />
        )}
      </Section>
      <DataRequests />
    </div>
  );
}

function ConsentRates({ report }: { report: ConsentReport }) {
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
