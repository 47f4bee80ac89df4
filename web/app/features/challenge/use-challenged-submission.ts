import { useMutation } from '@tanstack/react-query';
import { useRef, type RefObject } from 'react';
import { ApiError, apiRequest } from '../../lib/api-client';
import { asksForChallenge, CHALLENGE_FIELD, useChallenge } from './use-challenge';

type ErrorAnswer = { message?: string; errors?: Record<string, string> } | null;

/**
 * A public form's submission as a React Query mutation, with the challenge around it: the
 * solution (when there is one) goes with the payload, and a submission the API refuses for
 * want of one is sent again, once, as soon as the widget has solved it. `onError` hears of
 * every other failure with the API's `{ message, errors }` (null when the answer had none).
 */
export function useChallengedSubmission<Payload extends object, Result>(
  formRef: RefObject<HTMLFormElement | null>,
  options: {
    url: string;
    parse: (answer: unknown) => Promise<Result>;
    onSuccess?: (result: Result, payload: Payload) => void;
    onError?: (answer: ErrorAnswer, error: unknown) => void;
  },
) {
  const challenge = useChallenge(formRef);
  const resent = useRef(false);
  const mutation = useMutation({
    mutationFn: async (payload: Payload) => {
      const solution = challenge.take();
      const body = solution ? { ...payload, [CHALLENGE_FIELD]: solution } : payload;
      return options.parse(await (await apiRequest('POST', options.url, body)).json());
    },
    onSuccess: (result, payload) => options.onSuccess?.(result, payload),
    onError: (error, payload) => {
      const answer: ErrorAnswer = error instanceof ApiError ? error.payload : null;
      if (asksForChallenge(answer)) {
        if (!resent.current) {
          resent.current = true;
          challenge.require(() => mutation.mutate(payload));
          return;
        }
        challenge.require(null);
      }
      options.onError?.(answer, error);
    },
  });

  const failure =
    mutation.error && !challenge.waiting
      ? ((mutation.error instanceof ApiError ? mutation.error.payload?.message : undefined) ?? null)
      : undefined;

  return {
    challenge,
    mutation,
    /** Sends what the visitor filled in (a new submission: it may be sent again once more). */
    submit(payload: Payload) {
      resent.current = false;
      mutation.mutate(payload);
    },
    /** Sending, or waiting for the challenge before sending again. */
    busy: mutation.isPending || challenge.waiting,
    /**
     * The failure to show: the API's message, null for a failure without one (the form's
     * fallback), undefined when there is none (or the challenge is being solved).
     */
    failure,
  };
}
