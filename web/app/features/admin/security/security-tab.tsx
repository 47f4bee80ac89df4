import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { adminTotpSchema, RECOVERY_CODE_COUNT, type AdminSecondFactorStatus } from '@guida/shared/schemas/admin';
import { Field, FormAlert, SubmitButton } from '../../../components/ui/form';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../admin-api';
import { formatDateTime } from '../ui/admin-format';
import { CARD_CLASS } from '../ui/admin-ui';
import { QueryContent } from '../ui/query-state';
import { RecoveryCodeList } from '../ui/recovery-code-list';
import { schemaResolver } from '../ui/schema-resolver';
import { useRegenerateRecoveryCodes, useSecondFactorStatus } from './security-queries';

const resolver = schemaResolver(adminTotpSchema);
/** At or below this many unused recovery codes the tab suggests new ones. */
const FEW_CODES_LEFT = 3;

/** The admin's own account security: the second factor and its recovery codes. */
export function SecurityTab() {
  const status = useSecondFactorStatus();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={`${CARD_CLASS} flex max-w-2xl flex-col gap-4`}>
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        Verifica in due passaggi
      </h2>
      <QueryContent query={status} loadingLabel="Caricamento della verifica in due passaggi">
        {(data) => <SecondFactorPanel status={data} />}
      </QueryContent>
    </section>
  );
}

function SecondFactorPanel({ status }: { status: AdminSecondFactorStatus }) {
  if (!status.enrolledAt) {
    return (
      <p className="text-sm text-slate-800">
        {status.required
          ? 'Non ancora attivata per questo account.'
          : 'Disattivata su questo server (ADMIN_SECOND_FACTOR=off, solo fuori produzione): l’accesso chiede soltanto la password.'}
      </p>
    );
  }
  const few = status.recoveryCodesLeft <= FEW_CODES_LEFT;
  return (
    <>
      <p className="text-sm text-slate-800">
        Attiva dal {formatDateTime(status.enrolledAt)}: ogni accesso chiede, dopo la password, il codice dell’app di autenticazione.
      </p>
      <p className={`rounded-md p-3 text-sm font-medium ${few ? 'bg-amber-50 text-amber-900' : 'bg-slate-50 text-slate-800'}`}>
        Codici di recupero ancora validi: {status.recoveryCodesLeft} su {RECOVERY_CODE_COUNT}.
        {few ? ' Ne restano pochi: generane di nuovi.' : null}
      </p>
      <RegenerateForm />
    </>
  );
}

/** New recovery codes against a current code of the app: shown once, the old ones void. */
function RegenerateForm() {
  const regenerate = useRegenerateRecoveryCodes();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm({ resolver, defaultValues: { code: '' } });

  const submit = handleSubmit((answer) =>
    regenerate.mutate(answer, {
      onSuccess: () => reset({ code: '' }),
      onError: (error) => {
        const message = error instanceof ApiError ? error.payload?.errors?.code : undefined;
        if (message) setError('code', { message }, { shouldFocus: true });
      },
    }),
  );

  return (
    <div className="flex flex-col gap-3">
      <form noValidate aria-label="Nuovi codici di recupero" onSubmit={(event) => void submit(event)} className="flex flex-col gap-3">
        <h3 className="text-base font-semibold text-slate-900">Nuovi codici di recupero</h3>
        <p className="text-sm text-slate-700">
          Genera {RECOVERY_CODE_COUNT} nuovi codici se hai usato quelli vecchi o temi che qualcuno li abbia visti: i codici di
          prima smettono di valere.
        </p>
        {regenerate.isError && !(regenerate.error instanceof ApiError && regenerate.error.payload?.errors?.code) ? (
          <FormAlert>{errorMessage(regenerate.error)}</FormAlert>
        ) : null}
        <Field
          label="Codice di 6 cifre dell’app"
          autoComplete="one-time-code"
          inputMode="numeric"
          size="sm"
          className="max-w-xs"
          error={errors.code?.message}
          {...register('code')}
        />
        <SubmitButton pending={regenerate.isPending} pendingLabel="Generazione in corso..." className="self-start">
          Genera nuovi codici di recupero
        </SubmitButton>
      </form>
      {regenerate.data ? <RecoveryCodeList codes={regenerate.data.recoveryCodes} /> : null}
    </div>
  );
}
