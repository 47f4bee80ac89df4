import { useId, useState } from 'react';
import { adminSecondFactorSchema, type AdminLoginAnswer } from '@guida/shared/schemas/admin';
import { Field, FormAlert, SubmitButton } from '../../../components/ui/form';
import { errorMessage } from '../admin-api';
import { schemaResolver } from '../ui/schema-resolver';
import { LOGIN_CARD, useCodeStep } from './code-step';
import { waitTime } from './retry-countdown';
import { useSecondFactor } from './session-queries';

const resolver = schemaResolver(adminSecondFactorSchema);

/**
 * The login's second step: the 6-digit code of the authenticator app, or one of the
 * recovery codes (the same field; a link switches its label and keyboard). A pending login
 * that expired sends back to the password.
 */
export function SecondFactorStep({ onAnswer, onRestart }: { onAnswer: (answer: AdminLoginAnswer) => void; onRestart: (message: string) => void }) {
  const verify = useSecondFactor();
  const titleId = useId();
  const [recovery, setRecovery] = useState(false);
  const {
    form: {
      register,
      setValue,
      formState: { errors },
    },
    submit,
    waitSeconds,
  } = useCodeStep({ mutation: verify, resolver, onAnswer, onRestart });

  // The field is drawn anew (its key), focused, with the other label and keyboard.
  const switchKind = () => {
    setRecovery((current) => !current);
    setValue('code', '');
  };

  return (
    <form noValidate aria-labelledby={titleId} onSubmit={(event) => void submit(event)} className={LOGIN_CARD}>
      <h1 id={titleId} className="text-2xl font-bold text-slate-900">
        Verifica in due passaggi
      </h1>
      <p className="text-sm text-slate-700">
        {recovery
          ? 'Inserisci uno dei codici di recupero che hai salvato quando hai attivato la verifica: ognuno vale una sola volta.'
          : 'Apri l’app di autenticazione sul telefono e inserisci il codice di 6 cifre che mostra per Guida Finanza.'}
      </p>
      {verify.isError ? (
        <FormAlert>
          {errorMessage(verify.error)}
          {waitSeconds > 0 ? ` Potrai riprovare tra ${waitTime(waitSeconds)}.` : null}
        </FormAlert>
      ) : null}
      <Field
        key={recovery ? 'recovery' : 'totp'}
        label={recovery ? 'Codice di recupero' : 'Codice di 6 cifre'}
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        error={errors.code?.message}
        {...register('code')}
      />
      <SubmitButton pending={verify.isPending} pendingLabel="Verifica in corso..." disabled={waitSeconds > 0} className="w-full py-3 text-base">
        {waitSeconds > 0 ? `Riprova tra ${waitTime(waitSeconds)}` : 'Verifica e accedi'}
      </SubmitButton>
      <button type="button" className="self-start text-sm font-medium text-emerald-800 underline underline-offset-2" onClick={switchKind}>
        {recovery ? 'Usa il codice dell’app' : 'Non hai il telefono? Usa un codice di recupero'}
      </button>
    </form>
  );
}
