import type { DataRequestList } from '@guida/shared/schemas/admin';
import { useDataRequests } from './admin-api';
import { EMPTY_VALUE, dataRequestStatusLabel, dataRequestTypeLabel, formatDateTime } from './admin-format';
import { DataTable, ErrorNotice, Loading, Section } from './admin-ui';

type DataRequest = DataRequestList['items'][number];

/** The columns of one request; the GDPR actions add theirs here, one cell per column. */
const COLUMNS = [
  { label: 'Ricevuta il' },
  { label: 'Email' },
  { label: 'Tipo' },
  { label: 'Stato' },
  { label: 'Gestita il' },
  { label: 'Gestita da' },
  { label: 'Note' },
];

const cellsOf = (request: DataRequest) => [
  formatDateTime(request.submittedAt),
  request.email,
  dataRequestTypeLabel(request.requestType),
  dataRequestStatusLabel(request.status),
  formatDateTime(request.processedAt),
  request.processedBy ?? EMPTY_VALUE,
  request.notes ?? EMPTY_VALUE,
];

/** Data-rights requests (access, deletion, portability, rectification): read-only for now. */
export function DataRequests() {
  const requests = useDataRequests();
  return (
    <Section title="Richieste sui dati personali">
      {requests.isPending ? (
        <Loading label="Caricamento delle richieste" />
      ) : requests.data === undefined ? (
        <ErrorNotice error={requests.error} onRetry={() => void requests.refetch()} />
      ) : (
        <DataTable
          caption="Elenco delle richieste ricevute"
          columns={COLUMNS}
          rows={requests.data.items.map((request) => ({ key: request.id, cells: cellsOf(request) }))}
          empty="Nessuna richiesta ricevuta."
        />
      )}
    </Section>
  );
}
