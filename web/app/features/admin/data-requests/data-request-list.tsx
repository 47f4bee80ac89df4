import { useState } from 'react';
import { GDPR_REQUEST_STATUS_LABELS, GDPR_REQUEST_STATUSES } from '@guida/shared/gdpr-rules';
import { dataRequestListQuerySchema } from '@guida/shared/schemas/admin';
import { EMPTY_VALUE, formatDateTime } from '../ui/admin-format';
import { DataTable, Section } from '../ui/admin-ui';
import { FilterForm, type FilterField } from '../ui/filter-form';
import { ErrorNotice, Loading } from '../ui/query-state';
import { useUrlValues } from '../ui/url-values';
import { requestStatusLabel, requestTypeLabel, type DataRequest } from './data-request-labels';
import { useDataRequests } from './data-request-queries';
import { ProcessDataRequest } from './process-data-request';

/** The list's query without its paging: the status is its one filter. */
const STATUS_FILTER = dataRequestListQuerySchema.pick({ status: true });
const FILTER_NAMES = STATUS_FILTER.keyof().options;
const FILTER_FIELDS: readonly FilterField<'status'>[] = [
  {
    name: 'status',
    label: 'Stato della richiesta',
    options: GDPR_REQUEST_STATUSES.map((value) => ({ value, label: GDPR_REQUEST_STATUS_LABELS[value] })),
  },
];

const COLUMNS = [
  { label: 'Ricevuta il' },
  { label: 'Email' },
  { label: 'Tipo' },
  { label: 'Stato' },
  { label: 'Confermata il' },
  { label: 'Gestita da' },
  { label: 'Completata il' },
  { label: 'Note' },
  { label: 'Azioni' },
];

/**
 * Data-rights requests: the list (filtered by a status kept in the URL), and processing a
 * confirmed one below it.
 */
export function DataRequestList() {
  const [values, update] = useUrlValues(FILTER_NAMES, 'richieste_');
  const requests = useDataRequests(values.status);
  const [openId, setOpenId] = useState<number | null>(null);
  const open = requests.data?.items.find((request) => request.id === openId) ?? null;

  const cellsOf = (request: DataRequest) => [
    formatDateTime(request.submittedAt),
    request.email ?? 'Cancellata',
    requestTypeLabel(request.requestType),
    requestStatusLabel(request.status),
    formatDateTime(request.confirmedAt),
    request.processedBy ?? EMPTY_VALUE,
    formatDateTime(request.completedAt),
    request.notes ?? EMPTY_VALUE,
    request.status === 'confirmed' ? (
      <button key="open" type="button" className="btn-secondary whitespace-nowrap" onClick={() => setOpenId(request.id)}>
        Gestisci n. {request.id}
      </button>
    ) : (
      EMPTY_VALUE
    ),
  ];

  return (
    <>
      <FilterForm label="Filtro delle richieste" schema={STATUS_FILTER} fields={FILTER_FIELDS} values={values} onApply={update} />
      <Section title="Richieste sui dati personali">
        <p className="mb-3 text-sm text-slate-700">
          Solo le richieste confermate dal richiedente (con il link ricevuto via email) si possono gestire. Va data
          risposta entro un mese dal ricevimento.
        </p>
        {requests.isPending ? (
          <Loading label="Caricamento delle richieste" />
        ) : requests.data === undefined ? (
          <ErrorNotice error={requests.error} onRetry={() => void requests.refetch()} />
        ) : (
          <DataTable
            caption="Elenco delle richieste ricevute"
            columns={COLUMNS}
            rows={requests.data.items.map((request) => ({ key: request.id, cells: cellsOf(request) }))}
            empty="Nessuna richiesta."
          />
        )}
      </Section>
      {open ? <ProcessDataRequest key={open.id} request={open} onDone={() => setOpenId(null)} /> : null}
    </>
  );
}
