import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** The field the API reads the solution from (api/src/challenge). */
export const CHALLENGE_FIELD = 'altcha';
const STATUS_URL = '/api/challenge/status';

/** The API's `{ message, challengeRequired: true }` answer (428 or 403). */
export const asksForChallenge = (payload: unknown) =>
  typeof payload === 'object' && payload !== null && (payload as { challengeRequired?: unknown }).challengeRequired === true;

/**
 * The anti-robot challenge of a public form (decision 028). Nothing happens in normal
 * traffic but one small status request when the form is first focused. When the API says
 * a challenge is needed (then, or by refusing a submission), `round` turns positive and the
 * form shows the widget, loaded only now, which solves it in the background; a submission
 * the API refused is sent again as soon as the solution is there.
 */
export function useChallenge(formRef: RefObject<HTMLFormElement | null>) {
  const [round, setRound] = useState(0);
  const [waiting, setWaiting] = useState(false);
  const [focused, setFocused] = useState(false);
  const solution = useRef<string | null>(null);
  const solving = useRef(false);
  const resend = useRef<(() => void) | null>(null);

  const start = useCallback(() => {
    solving.current = true;
    solution.current = null;
    setRound((current) => current + 1);
  }, []);

  useEffect(() => {
    const form = formRef.current;
    const onFocus = () => setFocused(true);
    form?.addEventListener('focusin', onFocus, { once: true });
    return () => form?.removeEventListener('focusin', onFocus);
  }, [formRef]);

  // Asked when the form is first focused, afresh for each form shown (staleTime 0); a lost
  // answer is asked again by the submission's.
  const status = useQuery<{ required: boolean }>({ queryKey: [STATUS_URL], enabled: focused, staleTime: 0 });
  const required = status.data?.required === true;
  useEffect(() => {
    if (required && !solving.current && solution.current === null) start();
  }, [required, start]);

  const take = useCallback((): string | undefined => {
    const taken = solution.current ?? undefined;
    solution.current = null;
    return taken;
  }, []);
  const require = useCallback(
    (send: (() => void) | null) => {
      resend.current = send;
      setWaiting(send !== null);
      if (!solving.current) start();
    },
    [start],
  );
  const solved = useCallback((payload: string) => {
    solving.current = false;
    solution.current = payload;
    const send = resend.current;
    resend.current = null;
    setWaiting(false);
    send?.();
  }, []);
  const failed = useCallback(() => {
    solving.current = false;
    solution.current = null;
    resend.current = null;
    setWaiting(false);
  }, []);

  return {
    /** 0 while no challenge is needed; each new one the widget must solve adds one. */
    round,
    /** A refused submission waits for the widget to solve. */
    waiting,
    /** The solution for the next submission, once (the API accepts each one once). */
    take,
    /** The API refused a submission for want of a solution: solve one, then `send` again. */
    require,
    solved,
    /** The widget failed or its challenge expired: the visitor can verify or submit again. */
    failed,
  };
}

export type Challenge = ReturnType<typeof useChallenge>;
