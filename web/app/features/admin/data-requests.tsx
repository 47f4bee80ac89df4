import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  GDPR_REQUEST_STATUS_LABELS,
  GDPR_REQUEST_STATUSES,
  GDPR_REQUEST_TYPE_LABELS,
  GDPR_TEXT_MAX_LENGTH,
  type GdprProcessAction,
} from '@guida/shared/gdpr-rules';
import type { DataRequestList } from '@guida/shared/schemas/admin';
import type { ConsentHistory } from '@guida/shared/schemas/gdpr';
import { ApiError } from '../../lib/api-client';
import {
  DATA_REQUESTS_URL,
  leadUrl,
  processDataRequestUrl,
  rectifyLeadUrl,
  useAdminSubmit,
  useConsentHistory,
  useDataRequests,
  useLeadDetail,
} from './admin-api';
import { EMPTY_VALUE, formatDateTime, yesNo } from './admin-format';
import { CARD_CLASS, DataTable, ErrorNotice, Facts, FilterForm, Loading, Section, SelectFilter, useUrlValues } from './admin-ui';

type DataRequest = DataRequestList['items'][number];

const INPUT_CLASS =
  'w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 focus:border-emerald-700 focus:outline-none focus:ring-2 focus:ring-emerald-700/40 aria-[invalid=true]:border-red-700';

/** Falls back to the raw value, so a value added on the server still shows. */
const typeLabel = (type: string) => (GDPR_REQUEST_TYPE_LABELS as Record<string, string>)[type] ?? type;
const statusLabel = (status: string) => (GDPR_REQUEST_STATUS_LABELS as Record<string, string>)[status] ?? status;
const CONSENT_TYPE_LABELS: Record<string, string> = { privacy: 'Privacy (invio della guida)', marketing: 'Comunicazioni promozionali' };

const STATUS_OPTIONS = GDPR_REQUEST_STATUSES.map((value) => ({ value, label: GDPR_REQUEST_STATUS_LABELS[value] }));
const FILTER_NAMES = ['status'] as const;

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

const refreshesRequests = (url: string) => url.startsWith(DATA_REQUESTS_URL);

/**
 * Data-rights requests: the list, processing a confirmed request (for a rectification,
 * correcting the lead first), and the consent history of an address.
 */
export function DataRequests() {
  return (
    <>
      <DataRequestTable />
      <ConsentHistoryLookup />
    </>
  );
}

function DataRequestTable() {
  const [values, update] = useUrlValues(FILTER_NAMES, 'richieste_');
  const requests = useDataRequests(values.status);
  const [openId, setOpenId] = useState<number | null>(null);
  const open = requests.data?.items.find((request) => request.id === openId) ?? null;

  const cellsOf = (request: DataRequest) => [
    formatDateTime(request.submittedAt),
    request.email ?? 'Cancellata',
    typeLabel(request.requestType),
    statusLabel(request.status),
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
      <FilterForm label="Filtro delle richieste" names={FILTER_NAMES} values={values} onApply={update}>
        <SelectFilter name="status" label="Stato della richiesta" defaultValue={values.status} options={STATUS_OPTIONS} />
      </FilterForm>
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
      {open ? <ProcessRequest key={open.id} request={open} onDone={() => setOpenId(null)} /> : null}
    </>
  );
}

/** Accepting or rejecting one confirmed request. */
function ProcessRequest({ request, onDone }: { request: DataRequest; onDone: () => void }) {
  const id = useId();
  const [notes, setNotes] = useState('');
  const [erasureConfirmed, setErasureConfirmed] = useState(false);
  const submit = useAdminSubmit(refreshesRequests);
  const deletion = request.requestType === 'deletion';
  const decide = (action: GdprProcessAction) =>
    submit.mutate({ url: processDataRequestUrl(request.id), body: { action, notes } }, { onSuccess: onDone });

  return (
    <Section
      title={`Gestione della richiesta n. ${request.id}`}
      actions={
        <button type="button" className="btn-secondary" onClick={onDone}>
          Chiudi
        </button>
      }
    >
      <Facts
        columns="sm:grid-cols-[12rem_1fr]"
        items={[
          ['Email', request.email ?? EMPTY_VALUE],
          ['Tipo', typeLabel(request.requestType)],
          ['Ricevuta il', formatDateTime(request.submittedAt)],
          ['Confermata il', formatDateTime(request.confirmedAt)],
          ['Lead con questo indirizzo', request.leadIds.length ? request.leadIds.map((leadId) => `n. ${leadId}`).join(', ') : 'Nessuno'],
          ...(request.details ? [['Da correggere, secondo il richiedente', request.details] as [string, ReactNode]] : []),
        ]}
      />
      <p className="mt-3 text-sm text-slate-700">{WHAT_COMPLETING_DOES[request.requestType] ?? ''}</p>

      {request.requestType === 'rectification'
        ? request.leadIds.map((leadId) => <RectifyLead key={leadId} leadId={leadId} dataRequestId={request.id} />)
        : null}

      <div className="mt-4">
        <label htmlFor={`${id}-notes`} className="mb-1 block text-sm font-medium text-slate-800">
          Note
        </label>
        <p id={`${id}-notes-hint`} className="mb-1 text-sm text-slate-700">
          Se respingi la richiesta, le note sono il motivo inviato al richiedente.
        </p>
        <textarea
          id={`${id}-notes`}
          rows={3}
          maxLength={GDPR_TEXT_MAX_LENGTH}
          aria-describedby={`${id}-notes-hint`}
          className={INPUT_CLASS}
          value={notes}
          onChange={(event) => setNotes(event.target.value)}
        />
      </div>
      {deletion ? (
        <div className="mt-3 flex items-start gap-2">
          <input
            id={`${id}-confirm`}
            type="checkbox"
            className="mt-1 h-4 w-4 accent-emerald-700"
            checked={erasureConfirmed}
            onChange={(event) => setErasureConfirmed(event.target.checked)}
          />
          <label htmlFor={`${id}-confirm`} className="text-sm text-slate-800">
            Ho verificato la richiesta: la cancellazione dei dati è definitiva e non si può annullare.
          </label>
        </div>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-primary"
          disabled={submit.isPending || (deletion && !erasureConfirmed)}
          onClick={() => decide('complete')}
        >
          {deletion ? 'Cancella i dati e completa' : 'Completa la richiesta'}
        </button>
        <button type="button" className="btn-secondary" disabled={submit.isPending} onClick={() => decide('reject')}>
          Respingi la richiesta
        </button>
      </div>
    </Section>
  );
}

const WHAT_COMPLETING_DOES: Record<string, string> = {
  access: 'Completando, il sistema prepara l’esportazione di tutti i dati (JSON e CSV) e invia al richiedente un link personale con scadenza.',
  portability:
    'Completando, il sistema prepara l’esportazione di tutti i dati (JSON e CSV) e invia al richiedente un link personale con scadenza.',
  deletion:
    'Completando, il sistema cancella i dati della persona in ogni tabella, annulla gli invii in coda, avvisa il CRM (lead.deleted) e conferma al richiedente.',
  rectification:
    'Correggi prima i lead qui sotto (il CRM riceve lead.updated); completando, il richiedente riceve la conferma via email.',
};

const RECTIFY_FIELDS = [
  ['nome', 'Nome', 'text'],
  ['cognome', 'Cognome', 'text'],
  ['email', 'Email', 'email'],
  ['telefono', 'Cellulare', 'tel'],
] as const;
type RectifyField = (typeof RECTIFY_FIELDS)[number][0];

/** The form that corrects one lead, filled in with its current values. */
function RectifyLead({ leadId, dataRequestId }: { leadId: number; dataRequestId: number }) {
  const detail = useLeadDetail(leadId);
  const id = useId();
  const submit = useAdminSubmit((url) => refreshesRequests(url) || url === leadUrl(leadId));
  const fieldErrors =
    submit.error instanceof ApiError ? ((submit.error.payload?.errors ?? {}) as Partial<Record<RectifyField, string>>) : {};

  if (detail.isPending) return <Loading label={`Caricamento del lead n. ${leadId}`} />;
  if (detail.isError) return <ErrorNotice error={detail.error} onRetry={() => void detail.refetch()} />;
  const { lead } = detail.data;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const body = Object.fromEntries(RECTIFY_FIELDS.map(([name]) => [name, String(data.get(name) ?? '').trim()]));
    submit.mutate({ url: rectifyLeadUrl(leadId), body: { ...body, dataRequestId } });
  };

  return (
    <form
      aria-label={`Correzione del lead n. ${leadId}`}
      noValidate
      onSubmit={onSubmit}
      className={`${CARD_CLASS} mt-4 bg-slate-50`}
    >
      <h3 className="mb-3 text-base font-semibold text-slate-900">Correggi il lead n. {leadId}</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        {RECTIFY_FIELDS.map(([name, label, type]) => (
          <div key={name}>
            <label htmlFor={`${id}-${name}`} className="mb-1 block text-sm font-medium text-slate-800">
              {label}
            </label>
            <input
              id={`${id}-${name}`}
              name={name}
              type={type}
              defaultValue={lead[name]}
              aria-invalid={fieldErrors[name] ? true : undefined}
              aria-describedby={fieldErrors[name] ? `${id}-${name}-error` : undefined}
              className={INPUT_CLASS}
            />
            {fieldErrors[name] ? (
              <p id={`${id}-${name}-error`} className="mt-1 text-sm font-medium text-red-700">
                {fieldErrors[name]}
              </p>
            ) : null}
          </div>
        ))}
      </div>
      <button type="submit" className="btn-primary mt-3" disabled={submit.isPending}>
        Salva la correzione
      </button>
    </form>
  );
}

/** Everything that proves what an address consented to. */
function ConsentHistoryLookup() {
  const id = useId();
  const [email, setEmail] = useState('');
  const history = useConsentHistory(email);
  return (
    <Section title="Storico dei consensi di una persona">
      <form
        role="search"
        aria-label="Cerca lo storico dei consensi"
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setEmail(String(new FormData(event.currentTarget).get('email') ?? '').trim().toLowerCase());
        }}
      >
        <div className="min-w-64 flex-1">
          <label htmlFor={`${id}-email`} className="mb-1 block text-sm font-medium text-slate-800">
            Email della persona
          </label>
          <input id={`${id}-email`} name="email" type="email" autoComplete="off" className={INPUT_CLASS} />
        </div>
        <button type="submit" className="btn-primary">
          Cerca
        </button>
      </form>
      <p className="mt-2 text-sm text-slate-700">
        Le scelte sui cookie sono legate a un identificativo casuale del browser, non a un indirizzo: non compaiono qui.
        Ogni ricerca è registrata nel registro delle attività.
      </p>
      {email === '' ? null : history.isPending ? (
        <Loading label="Caricamento dello storico" />
      ) : history.data === undefined ? (
        <ErrorNotice error={history.error} onRetry={() => void history.refetch()} />
      ) : (
        <ConsentHistoryView history={history.data} />
      )}
    </Section>
  );
}

function ConsentHistoryView({ history }: { history: ConsentHistory }) {
  return (
    <div className="mt-4 flex flex-col gap-4">
      <h3 className="text-base font-semibold text-slate-900">Consensi registrati</h3>
      <DataTable
        caption={`Consensi registrati per ${history.email}`}
        columns={[
          { label: 'Data e ora' },
          { label: 'Consenso' },
          { label: 'Dato' },
          { label: 'Versione del testo' },
          { label: 'Impronta del testo' },
          { label: 'IP (troncato)' },
          { label: 'Browser' },
          { label: 'Lead' },
        ]}
        rows={history.consents.map((consent) => ({
          key: consent.id,
          cells: [
            formatDateTime(consent.timestamp),
            CONSENT_TYPE_LABELS[consent.consentType] ?? consent.consentType,
            yesNo(consent.consented),
            consent.consentVersion,
            consent.consentTextHash ? <code key="hash" title={consent.consentTextHash}>{consent.consentTextHash.slice(0, 12)}…</code> : EMPTY_VALUE,
            consent.ipAddress ?? EMPTY_VALUE,
            consent.userAgent ?? EMPTY_VALUE,
            consent.pseudonymised ? 'Cancellato (prova pseudonimizzata)' : consent.leadId ? `n. ${consent.leadId}` : EMPTY_VALUE,
          ],
        }))}
        empty="Nessun consenso registrato per questo indirizzo."
      />
      <h3 className="text-base font-semibold text-slate-900">Lead</h3>
      <DataTable
        caption="Consenso registrato con ogni lead"
        columns={[
          { label: 'Lead' },
          { label: 'Richiesto il' },
          { label: 'Privacy' },
          { label: 'Versione privacy' },
          { label: 'Marketing' },
          { label: 'Versione marketing' },
          { label: 'Consenso dato il' },
          { label: 'IP (troncato)' },
        ]}
        rows={history.leads.map((lead) => ({
          key: lead.id,
          cells: [
            `n. ${lead.id}`,
            formatDateTime(lead.createdAt),
            yesNo(lead.gdprConsent),
            lead.consentVersion,
            yesNo(lead.marketingConsent),
            lead.marketingConsentVersion ?? EMPTY_VALUE,
            formatDateTime(lead.consentTimestamp),
            lead.ipAddress ?? EMPTY_VALUE,
          ],
        }))}
        empty="Nessun lead con questo indirizzo."
      />
      <h3 className="text-base font-semibold text-slate-900">Richieste e cancellazioni</h3>
      <DataTable
        caption="Richieste sui dati e cancellazioni di questo indirizzo"
        columns={[{ label: 'Data' }, { label: 'Evento' }, { label: 'Stato' }]}
        rows={[
          ...history.dataRequests.map((request) => ({
            key: `r${request.id}`,
            cells: [formatDateTime(request.submittedAt), `Richiesta n. ${request.id}: ${typeLabel(request.requestType)}`, statusLabel(request.status)],
          })),
          ...history.erasures.map((erasure) => ({
            key: `e${erasure.id}`,
            cells: [
              formatDateTime(erasure.erasedAt),
              `Cancellazione (${erasure.reason === 'retention' ? 'fine del periodo di conservazione' : 'su richiesta'})`,
              `Lead ${erasure.leadIds.map((leadId) => `n. ${leadId}`).join(', ')}`,
            ],
          })),
        ]}
        empty="Nessuna richiesta né cancellazione."
      />
    </div>
  );
}
