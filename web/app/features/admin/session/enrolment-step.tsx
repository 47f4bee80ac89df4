import { useId } from 'react';
import { adminTotpSchema, type AdminEnrolment, type AdminLoginAnswer } from '@guida/shared/schemas/admin';
import { Field, FormAlert, SubmitButton } from '../../../components/ui/form';
import { errorMessage } from '../admin-api';
import { RecoveryCodeList } from '../ui/recovery-code-list';
import { schemaResolver } from '../ui/schema-resolver';
import { LOGIN_CARD, useCodeStep } from './code-step';
import { waitTime } from './retry-countdown';
import { useEnrolment } from './session-queries';

const resolver = schemaResolver(adminTotpSchema);

/** "ABCD EFGH …": the secret in groups of four, as the apps' "enter a key" screens take it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)!.join(' ');

/**
 * The first login's enrolment: the app adds the account from the QR code (drawn by the API
 * as an image) or from the key typed by hand, and its first code confirms it.
 */
export function EnrolmentStep({
  enrolment,
  onAnswer,
  onRestart,
}: {
  enrolment: AdminEnrolment;
  onAnswer: (answer: AdminLoginAnswer) => void;
  onRestart: (message: string) => void;
}) {
  const enrol = useEnrolment();
  const titleId = useId();
  const {
    form: {
      register,
      formState: { errors },
    },
    submit,
    waitSeconds,
  } = useCodeStep({ mutation: enrol, resolver, onAnswer, onRestart });

  return (
    <form noValidate aria-labelledby={titleId} onSubmit={(event) => void submit(event)} className={LOGIN_CARD}>
      <h1 id={titleId} className="text-2xl font-bold text-slate-900">
        Attiva la verifica in due passaggi
      </h1>
      <p className="text-sm text-slate-700">
        L’area amministrazione mostra i dati di tutti i lead: oltre alla password chiede un codice che un’app sul tuo telefono
        genera ogni 30 secondi. Si attiva una volta sola.
      </p>
      <ol className="flex list-decimal flex-col gap-3 pl-5 text-sm text-slate-800">
        <li>Installa o apri un’app di autenticazione (per esempio Google Authenticator, Microsoft Authenticator, FreeOTP o 1Password).</li>
        <li>
          Nell’app aggiungi un account inquadrando questo codice QR:
          <img
            src={enrolment.qrCode}
            alt="Codice QR per aggiungere Guida Finanza all’app di autenticazione"
            width={224}
            height={224}
            className="mt-2 h-56 w-56 rounded-md ring-1 ring-slate-200"
          />
        </li>
        <li>
          Non puoi inquadrarlo? Scegli «inserisci una chiave» e scrivi questa chiave (basata sul tempo):
          <code className="mt-1 block rounded-md bg-slate-100 p-2 font-mono text-base tracking-wider text-slate-900 select-all [overflow-wrap:anywhere]">
            {grouped(enrolment.secret)}
          </code>
        </li>
        <li>Scrivi qui sotto il codice di 6 cifre che l’app mostra ora.</li>
      </ol>
      {enrol.isError ? (
        <FormAlert>
          {errorMessage(enrol.error)}
          {waitSeconds > 0 ? ` Potrai riprovare tra ${waitTime(waitSeconds)}.` : null}
        </FormAlert>
      ) : null}
      <Field
        label="Codice di 6 cifre"
        autoComplete="one-time-code"
        inputMode="numeric"
        autoFocus
        error={errors.code?.message}
        {...register('code')}
      />
      <SubmitButton pending={enrol.isPending} pendingLabel="Verifica in corso..." disabled={waitSeconds > 0} className="w-full py-3 text-base">
        {waitSeconds > 0 ? `Riprova tra ${waitTime(waitSeconds)}` : 'Conferma e continua'}
      </SubmitButton>
    </form>
  );
}

/** After the enrolment: the ten recovery codes, shown this once, before the dashboard. */
export function RecoveryCodesStep({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={LOGIN_CARD}>
      <h1 id={titleId} className="text-2xl font-bold text-slate-900">
        Verifica attivata: salva i codici di recupero
      </h1>
      <p className="text-sm text-slate-700">
        Se perdi il telefono o cambi app, potrai accedere con uno di questi codici al posto di quello dell’app.
      </p>
      <RecoveryCodeList codes={codes} />
      <button type="button" className="btn-primary w-full py-3 text-base" onClick={onDone}>
        Ho salvato i codici: vai alla dashboard
      </button>
    </section>
  );
}
