import type { UseMutationResult } from '@tanstack/react-query';
import { useForm, type Resolver } from 'react-hook-form';
import { adminMessages } from '@guida/shared/messages';
import type { AdminLoginAnswer } from '@guida/shared/schemas/admin';
import { ApiError } from '../../../lib/api-client';
import { useRetryCountdown } from './retry-countdown';

/** The card every step of the login is drawn in. */
export const LOGIN_CARD = 'flex flex-col gap-4 rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200';

interface CodeAnswer {
  code: string;
}

/**
 * The form of a login step that asks for a code (the enrolment's first code, the second
 * factor): the API's message on the field, the wait after too many tries, the field
 * emptied and focused after a wrong code, and back to the password when the pending
 * login expired.
 */
export function useCodeStep({
  mutation,
  resolver,
  onAnswer,
  onRestart,
}: {
  mutation: UseMutationResult<AdminLoginAnswer, Error, CodeAnswer>;
  resolver: Resolver<CodeAnswer>;
  onAnswer: (answer: AdminLoginAnswer) => void;
  onRestart: (message: string) => void;
}) {
  const [waitSeconds, setWaitSeconds] = useRetryCountdown();
  const form = useForm<CodeAnswer>({ resolver, defaultValues: { code: '' } });
  const { handleSubmit, setError, setFocus, setValue } = form;

  const submit = handleSubmit((answer) =>
    mutation.mutate(answer, {
      onSuccess: onAnswer,
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        if (error.status === 401 && error.payload?.message === adminMessages.secondFactorExpired) {
          onRestart(adminMessages.secondFactorExpired);
          return;
        }
        const message = error.payload?.errors?.code;
        if (message) setError('code', { message });
        if (error.status === 429) setWaitSeconds(error.retryAfterSeconds ?? 0);
        if (error.status === 401) {
          setValue('code', '');
          setFocus('code');
        }
      },
    }),
  );

  return { form, submit, waitSeconds };
}
