import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate } from 'react-router';
import { adminLoginSchema } from '@guida/shared/schemas/admin';
import { Field, FormAlert, SubmitButton } from '../../../components/ui/form';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../admin-api';
import { schemaResolver } from '../ui/schema-resolver';
import { useAdminSession, useLogin } from './session-queries';

const resolver = schemaResolver(adminLoginSchema);
const FIELDS = ['username', 'password'] as const;

/**
 * The admin sign-in form, checked with the API's own schema. Any signed-in session goes on
 * to the dashboard, whose guard stops accounts that are not admins.
 */
export function LoginPage() {
  const session = useAdminSession();
  const login = useLogin();
  const titleId = useId();
  const [waitSeconds, setWaitSeconds] = useState(0);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    setValue,
    formState: { errors },
  } = useForm({ resolver });

  // After a 429 the button stays off and counts down the seconds the server asked for.
  useEffect(() => {
    if (waitSeconds <= 0) return;
    const timer = setTimeout(() => setWaitSeconds((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [waitSeconds]);

  if (session.data) return <Navigate to="/admin/dashboard" replace />;
  if (session.isPending) {
    return (
      <main className="flex min-h-screen items-center justify-center">
        <Spinner label="Verifica dell’accesso in corso" />
      </main>
    );
  }

  const signIn = handleSubmit((credentials) =>
    login.mutate(credentials, {
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
    <main className="mx-auto max-w-md px-4 py-16 sm:py-24">
      <form
        noValidate
        aria-labelledby={titleId}
        onSubmit={(event) => void signIn(event)}
        className="flex flex-col gap-4 rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200"
      >
        <h1 id={titleId} className="text-2xl font-bold text-slate-900">
          Accesso amministratori
        </h1>
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
    </main>
  );
}

/** "45 secondi", "1 minuto", "15 minuti": the wait in words. */
function waitTime(seconds: number) {
  if (seconds < 60) return seconds === 1 ? '1 secondo' : `${seconds} secondi`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minuto' : `${minutes} minuti`;
}
