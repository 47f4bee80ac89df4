import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type Ref } from 'react';
import { Navigate } from 'react-router';
import type { AdminSession } from '@guida/shared/schemas/admin';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, apiRequest } from '../../lib/api-client';
import { ADMIN_SESSION_URL, errorMessage, useAdminSession } from './admin-api';

type FieldName = 'username' | 'password';
type FieldErrors = Partial<Record<FieldName, string>>;

/**
 * The same rules as the shared adminLoginSchema, written out: importing the schema here
 * would split modules the public pages load into extra chunks.
 */
function validate({ username, password }: Record<FieldName, string>) {
  const errors: FieldErrors = {};
  if (!username) errors.username = 'Inserisci il nome utente';
  if (!password) errors.password = 'Inserisci la password';
  return errors;
}

/**
 * The admin sign-in form. Any signed-in session goes on to the dashboard, whose guard
 * stops accounts that are not admins.
 */
export function LoginPage() {
  const session = useAdminSession();
  const formId = useId();
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [waitSeconds, setWaitSeconds] = useState(0);

  // After a 429 the button stays off and counts down the seconds the server asked for.
  useEffect(() => {
    if (waitSeconds <= 0) return;
    const timer = setTimeout(() => setWaitSeconds((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [waitSeconds]);

  const login = useMutation({
    mutationFn: async (credentials: Record<FieldName, string>) =>
      (await (await apiRequest('POST', '/api/admin/login', credentials)).json()) as AdminSession,
    // The cached session makes this page redirect, and spares the dashboard a request.
    onSuccess: (signedIn, _credentials, _result, { client }) => client.setQueryData([ADMIN_SESSION_URL], signedIn),
    onError: (error) => {
      const errors = (error instanceof ApiError ? error.payload?.errors : undefined) ?? {};
      setFieldErrors({ username: errors.username, password: errors.password });
      if (error instanceof ApiError && error.status === 429) setWaitSeconds(error.retryAfterSeconds ?? 0);
      if (error instanceof ApiError && error.status === 401) {
        const password = passwordInput.current;
        if (password) {
          password.value = '';
          password.focus();
        }
      }
    },
  });

  if (session.data) return <Navigate to="/admin/dashboard" replace />;
  if (session.isPending) {
    return (
      <main className="flex min-h-screen items-center justify-center">
        <Spinner label="Verifica dell’accesso in corso" />
      </main>
    );
  }

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const credentials = { username: String(data.get('username') ?? '').trim(), password: String(data.get('password') ?? '') };
    const errors = validate(credentials);
    setFieldErrors(errors);
    if (errors.username) usernameInput.current?.focus();
    else if (errors.password) passwordInput.current?.focus();
    else login.mutate(credentials);
  };

  return (
    <main className="mx-auto max-w-md px-4 py-16 sm:py-24">
      <form
        noValidate
        aria-labelledby={`${formId}-title`}
        onSubmit={submit}
        className="flex flex-col gap-4 rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200"
      >
        <h1 id={`${formId}-title`} className="text-2xl font-bold text-slate-900">
          Accesso amministratori
        </h1>
        {login.isError ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm font-medium text-red-800">
            {errorMessage(login.error)}
            {waitSeconds > 0 ? ` Potrai riprovare tra ${waitTime(waitSeconds)}.` : null}
          </p>
        ) : null}
        <Field
          id={`${formId}-username`}
          name="username"
          label="Nome utente"
          autoComplete="username"
          autoFocus
          error={fieldErrors.username}
          ref={usernameInput}
        />
        <Field
          id={`${formId}-password`}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          error={fieldErrors.password}
          ref={passwordInput}
        />
        <button type="submit" className="btn-primary w-full py-3 text-base" disabled={login.isPending || waitSeconds > 0}>
          {login.isPending ? 'Accesso in corso...' : waitSeconds > 0 ? `Riprova tra ${waitTime(waitSeconds)}` : 'Accedi'}
        </button>
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

interface FieldProps {
  id: string;
  name: FieldName;
  label: string;
  type?: 'text' | 'password';
  autoComplete: 'username' | 'current-password';
  autoFocus?: boolean;
  error: string | undefined;
  ref: Ref<HTMLInputElement>;
}

function Field({ id, name, label, type = 'text', autoComplete, autoFocus, error, ref }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        autoCapitalize="none"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="w-full rounded-md border border-slate-400 px-3 py-2 text-base text-slate-900 focus:border-emerald-700 focus:outline-none focus:ring-2 focus:ring-emerald-700/40 aria-[invalid=true]:border-red-700"
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
