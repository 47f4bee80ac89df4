import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { consentHistoryQuerySchema, type ConsentHistory } from '@guida/shared/schemas/gdpr';
import { Field, SubmitButton } from '../../../components/ui/form';
import { EMPTY_VALUE, formatDateTime, labelOf, yesNo } from '../ui/admin-format';
import { DataTable, Section } from '../ui/admin-ui';
import { ErrorNotice, Loading } from '../ui/query-state';
import { schemaResolver } from '../ui/schema-resolver';
import { requestStatusLabel, requestTypeLabel } from './data-request-labels';
import { useConsentHistory } from './data-request-queries';

const CONSENT_TYPE_LABELS: Record<string, string> = { privacy: 'Privacy (invio della guida)', marketing: 'Comunicazioni promozionali' };

const resolver = schemaResolver(consentHistoryQuerySchema);

/** Everything that proves what an address consented to, looked up by the address. */
export function ConsentHistoryLookup() {
  const [email, setEmail] = useState('');
  const history = useConsentHistory(email);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver, defaultValues: { email: '' } });
  return (
    <Section title="Storico dei consensi di una persona">
      <form
        role="search"
        aria-label="Cerca lo storico dei consensi"
        noValidate
        className="flex flex-wrap items-start gap-2"
        onSubmit={(event) => void handleSubmit((query) => setEmail(query.email))(event)}
      >
        <div className="min-w-64 flex-1">
          <Field size="sm" label="Email della persona" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
        </div>
        {/* Level with the field, under its label. */}
        <SubmitButton pending={history.isFetching} pendingLabel="Ricerca in corso..." className="mt-6">
          Cerca
        </SubmitButton>
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
            labelOf(CONSENT_TYPE_LABELS, consent.consentType),
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
            cells: [formatDateTime(request.submittedAt), `Richiesta n. ${request.id}: ${requestTypeLabel(request.requestType)}`, requestStatusLabel(request.status)],
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
