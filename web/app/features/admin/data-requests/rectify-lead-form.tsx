import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { LeadDetail } from '@guida/shared/schemas/admin';
import { rectifyLeadSchema, type RectifyLeadInput } from '@guida/shared/schemas/gdpr';
import { Field, SubmitButton } from '../../../components/ui/form';
import { ApiError } from '../../../lib/api-client';
import { useAdminPost } from '../admin-api';
import { leadUrl, useLeadDetail } from '../leads/lead-queries';
import { CARD_CLASS } from '../ui/admin-ui';
import { ErrorNotice, Loading } from '../ui/query-state';
import { schemaResolver } from '../ui/schema-resolver';
import { rectifyLeadUrl, refreshesRequests } from './data-request-queries';

const RECTIFY_FIELDS = [
  ['nome', 'Nome', 'text'],
  ['cognome', 'Cognome', 'text'],
  ['email', 'Email', 'email'],
  ['telefono', 'Cellulare', 'tel'],
] as const;
type RectifyField = (typeof RECTIFY_FIELDS)[number][0];
const isRectifyField = (name: string): name is RectifyField => RECTIFY_FIELDS.some(([field]) => field === name);

const resolver = schemaResolver(rectifyLeadSchema);

/** The form that corrects one lead, once its current values are loaded. */
export function RectifyLead({ leadId, dataRequestId }: { leadId: number; dataRequestId: number }) {
  const detail = useLeadDetail(leadId);
  if (detail.isPending) return <Loading label={`Caricamento del lead n. ${leadId}`} />;
  if (detail.isError) return <ErrorNotice error={detail.error} onRetry={() => void detail.refetch()} />;
  return <RectifyLeadForm lead={detail.data.lead} dataRequestId={dataRequestId} />;
}

/**
 * The lead's personal fields, filled in with their current values and checked with the
 * API's schema; the API's own field errors show under the fields too.
 */
function RectifyLeadForm({ lead, dataRequestId }: { lead: LeadDetail['lead']; dataRequestId: number }) {
  const submit = useAdminPost((url) => refreshesRequests(url) || url === leadUrl(lead.id));
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RectifyLeadInput, unknown, z.output<typeof rectifyLeadSchema>>({
    resolver,
    defaultValues: { nome: lead.nome, cognome: lead.cognome, email: lead.email, telefono: lead.telefono },
  });

  const save = handleSubmit(({ nome, cognome, email, telefono }) =>
    submit.mutate(
      { url: rectifyLeadUrl(lead.id), body: { nome, cognome, email, telefono, dataRequestId } },
      {
        onError: (error) => {
          const fieldErrors = Object.entries((error instanceof ApiError ? error.payload?.errors : undefined) ?? {}).filter(
            (entry): entry is [RectifyField, string] => isRectifyField(entry[0]),
          );
          fieldErrors.forEach(([name, message], index) => setError(name, { message }, { shouldFocus: index === 0 }));
        },
      },
    ),
  );

  return (
    <form
      aria-label={`Correzione del lead n. ${lead.id}`}
      noValidate
      onSubmit={(event) => void save(event)}
      className={`${CARD_CLASS} mt-4 bg-slate-50`}
    >
      <h3 className="mb-3 text-base font-semibold text-slate-900">Correggi il lead n. {lead.id}</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        {RECTIFY_FIELDS.map(([name, label, type]) => (
          <Field key={name} size="sm" label={label} type={type} error={errors[name]?.message} {...register(name)} />
        ))}
      </div>
      <SubmitButton pending={submit.isPending} pendingLabel="Invio in corso..." className="mt-3">
        Salva la correzione
      </SubmitButton>
    </form>
  );
}
