import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate } from 'react-router';
import { adminLoginSchema, type AdminEnrolment, type AdminLoginAnswer, type AdminSession } from '@guida/shared/schemas/admin';
import { Field, FormAlert, SubmitButton } from '../../../components/ui/form';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../admin-api';
import { schemaResolver } from '../ui/schema-resolver';
import { LOGIN_CARD } from './code-step';
import { EnrolmentStep, RecoveryCodesStep } from './enrolment-step';
import { useRetryCountdown, waitTime } from './retry-countdown';
import { SecondFactorStep } from './second-factor-step';
import { enterDashboard, sessionEndedOf, useAdminSession, useLogin } from './session-queries';

const resolver = schemaResolver(adminLoginSchema);
const FIELDS = ['username', 'password'] as const;

/** Why the login page opened by itself: the session the admin had has ended. */
export const SESSION_ENDED_MESSAGE =
  'La sessione è terminata: per sicurezza si chiude dopo un periodo senza attività (o quando non è più valida). Accedi di nuovo.';

type Step =
  | { kind: 'password'; notice?: string }
  | { kind: 'second-factor' }
  | { kind: 'enrol'; enrolment: AdminEnrolment }
  | { kind: 'recovery-codes'; session: AdminSession; codes: string[] };

const codesLeft = (count: number) => (count === 1 ? 'ne resta 1' : `ne restano ${count}`);

/**
 * The admin sign-in, in two steps: the password, then the second factor (a code of the
 * app or a recovery code), or on the first login its enrolment and the recovery codes.
 * Any signed-in session goes on to the dashboard, whose guard stops non-admins.
 */
export function LoginPage() {
  const session = useAdminSession();
  const client = useQueryClient();
  const [sessionEnded] = useState(() => sessionEndedOf(client));
  const [step, setStep] = useState<Step>({ kind: 'password', ...(sessionEnded ? { notice: SESSION_ENDED_MESSAGE } : {}) });

  if (session.data) return <Navigate to="/admin/dashboard" replace />;
  if (session.isPending) {
    return (
      <main className="flex min-h-screen items-center justify-center">
        <Spinner label="Verifica dell’accesso in corso" />
      </main>
    );
  }

  const next = (answer: AdminLoginAnswer) => {
    if (answer.step === 'second-factor') setStep({ kind: 'second-factor' });
    else if (answer.step === 'enrol') setStep({ kind: 'enrol', enrolment: answer.enrolment });
    else if (answer.recoveryCodes) setStep({ kind: 'recovery-codes', session: answer.session, codes: answer.recoveryCodes });
    else {
      if (answer.recoveryCodesLeft !== undefined) {
        toast({
          title: `Codice di recupero usato: ${codesLeft(answer.recoveryCodesLeft)}.`,
          description: 'Puoi generarne di nuovi nella scheda Sicurezza.',
        });
      }
      enterDashboard(client, answer.session);
    }
  };
  const restart = (notice: string) => setStep({ kind: 'password', notice });

  return (
    <main className="mx-auto max-w-md px-4 py-16 sm:py-24">
      {step.kind === 'password' ? <PasswordStep notice={step.notice} onAnswer={next} /> : null}
      {step.kind === 'second-factor' ? <SecondFactorStep onAnswer={next} onRestart={restart} /> : null}
      {step.kind === 'enrol' ? <EnrolmentStep enrolment={step.enrolment} onAnswer={next} onRestart={restart} /> : null}
      {step.kind === 'recovery-codes' ? <RecoveryCodesStep codes={step.codes} onDone={() => enterDashboard(client, step.session)} /> : null}
    </main>
  );
}

/** The first step, checked with the API's own schema. */
function PasswordStep({ notice, onAnswer }: { notice: string | undefined; onAnswer: (answer: AdminLoginAnswer) => void }) {
  const login = useLogin();
  const titleId = useId();
  const [waitSeconds, setWaitSeconds] = useRetryCountdown();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    setValue,
    formState: { errors },
  } = useForm({ resolver });

  const signIn = handleSubmit((credentials) =>
    login.mutate(credentials, {
      onSuccess: onAnswer,
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        for (const name of FIELDS) {
          const message = error.payload?.errors?.[name];
          if (message) setError(name, { message });
        }
        if (error.status === 429) setWaitSeconds(error.retryAfterSeconds ?? 0);
        if (error.status === 401) {
          setValue('password', '');
          setFocus('password');
        }
      },
    }),
  );

  return (
    <form
      noValidate
      aria-labelledby={titleId}
      onSubmit={(event) => void signIn(event)}
      className={LOGIN_CARD}
    >
      <h1 id={titleId} className="text-2xl font-bold text-slate-900">
        Accesso amministratori
      </h1>
      {notice && !login.isError ? <FormAlert>{notice}</FormAlert> : null}
      {login.isError ? (
        <FormAlert>
          {errorMessage(login.error)}
          {waitSeconds > 0 ? ` Potrai riprovare tra ${waitTime(waitSeconds)}.` : null}
        </FormAlert>
      ) : null}
      <Field
        label="Nome utente"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        error={errors.username?.message}
        {...register('username')}
      />
      <Field
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <SubmitButton pending={login.isPending} pendingLabel="Accesso in corso..." disabled={waitSeconds > 0} className="w-full py-3 text-base">
        {waitSeconds > 0 ? `Riprova tra ${waitTime(waitSeconds)}` : 'Accedi'}
      </SubmitButton>
    </form>
  );
}
