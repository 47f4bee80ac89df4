import type { ReactNode } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { GDPR_TEXT_MAX_LENGTH, type GdprProcessAction } from '@guida/shared/gdpr-rules';
import { processDataRequestSchema } from '@guida/shared/schemas/gdpr';
import { Checkbox, Field, SubmitButton } from '../../../components/ui/form';
import { useAdminPost } from '../admin-api';
import { EMPTY_VALUE, formatDateTime } from '../ui/admin-format';
import { Facts, Section } from '../ui/admin-ui';
import { schemaResolver } from '../ui/schema-resolver';
import { requestTypeLabel, type DataRequest } from './data-request-labels';
import { processDataRequestUrl, refreshesRequests } from './data-request-queries';
import { RectifyLead } from './rectify-lead-form';

/** The decision's notes, checked as the API checks them; the action is the button pressed. */
const decisionSchema = processDataRequestSchema.pick({ notes: true });
/** The confirmation that an erasure is final is the form's own: the API does not take it. */
type DecisionValues = { notes: string; erasureConfirmed: boolean };
type Decision = z.output<typeof decisionSchema>;
const notesResolver = schemaResolver(decisionSchema);
const resolver: Resolver<DecisionValues, unknown, Decision> = (values, context, options) =>
  notesResolver(values, context, options as never);

const WHAT_COMPLETING_DOES: Record<string, string> = {
  access: 'Completando, il sistema prepara l’esportazione di tutti i dati (JSON e CSV) e invia al richiedente un link personale con scadenza.',
  portability:
    'Completando, il sistema prepara l’esportazione di tutti i dati (JSON e CSV) e invia al richiedente un link personale con scadenza.',
  deletion:
    'Completando, il sistema cancella i dati della persona in ogni tabella, annulla gli invii in coda, avvisa il CRM (lead.deleted) e conferma al richiedente.',
  rectification:
    'Correggi prima i lead qui sotto (il CRM riceve lead.updated); completando, il richiedente riceve la conferma via email.',
};

/**
 * Accepting or rejecting one confirmed request (for a rectification, after correcting its
 * leads); an erasure only once its confirmation is ticked.
 */
export function ProcessDataRequest({ request, onDone }: { request: DataRequest; onDone: () => void }) {
  const submit = useAdminPost(refreshesRequests);
  const {
    register,
    handleSubmit,
    formState: { errors, dirtyFields },
  } = useForm<DecisionValues, unknown, Decision>({ resolver, defaultValues: { notes: '', erasureConfirmed: false } });
  // Unticked at first, the box is dirty exactly while ticked. Read from the form state, not
  // with useWatch: react-hook-form is in the public pages' chunk, which useWatch would grow.
  const erasureConfirmed = dirtyFields.erasureConfirmed === true;
  const deletion = request.requestType === 'deletion';
  const sending = submit.isPending ? submit.variables.body?.action : null;
  const decide = (action: GdprProcessAction) =>
    handleSubmit(({ notes }) => submit.mutate({ url: processDataRequestUrl(request.id), body: { action, notes } }, { onSuccess: onDone }));

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
          ['Tipo', requestTypeLabel(request.requestType)],
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

      <form noValidate onSubmit={(event) => void decide('complete')(event)} className="mt-4 flex flex-col gap-3">
        <Field
          as="textarea"
          size="sm"
          label="Note"
          description="Se respingi la richiesta, le note sono il motivo inviato al richiedente."
          rows={3}
          maxLength={GDPR_TEXT_MAX_LENGTH}
          error={errors.notes?.message}
          {...register('notes')}
        />
        {deletion ? (
          <Checkbox
            label="Ho verificato la richiesta: la cancellazione dei dati è definitiva e non si può annullare."
            {...register('erasureConfirmed')}
          />
        ) : null}
        <div className="flex flex-wrap gap-2">
          <SubmitButton pending={sending === 'complete'} pendingLabel="Invio in corso..." disabled={submit.isPending || (deletion && !erasureConfirmed)}>
            {deletion ? 'Cancella i dati e completa' : 'Completa la richiesta'}
          </SubmitButton>
          <button type="button" className="btn-secondary" disabled={submit.isPending} onClick={() => void decide('reject')()}>
            {sending === 'reject' ? 'Invio in corso...' : 'Respingi la richiesta'}
          </button>
        </div>
      </form>
    </Section>
  );
}
