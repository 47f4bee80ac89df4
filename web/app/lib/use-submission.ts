import { useCallback, useRef, useState } from 'react';

interface SubmissionOptions<Payload, Result> {
  send: (payload: Payload) => Promise<Result>;
  onSuccess?: (result: Result, payload: Payload) => void;
  onError?: (error: unknown, payload: Payload) => void;
}

type SubmissionState<Result> =
  | { status: 'idle' | 'pending'; data: undefined; error: null }
  | { status: 'success'; data: Result; error: null }
  | { status: 'error'; data: undefined; error: unknown };

const IDLE = { status: 'idle', data: undefined, error: null } as const;

type SubmissionView<Result> =
  | { isPending: boolean; isSuccess: false; data: undefined; error: unknown }
  | { isPending: false; isSuccess: true; data: Result; error: null };

function view<Result>(state: SubmissionState<Result>): SubmissionView<Result> {
  return state.status === 'success'
    ? { isPending: false, isSuccess: true, data: state.data, error: null }
    : { isPending: state.status === 'pending', isSuccess: false, data: undefined, error: state.error };
}

/**
 * A form's request to the API and its state (pending, answer, error). Only the latest
 * submission counts: an earlier one that ends later changes nothing. The callbacks run
 * before the state changes.
 */
export function useSubmission<Payload, Result>(options: SubmissionOptions<Payload, Result>) {
  const [state, setState] = useState<SubmissionState<Result>>(IDLE);
  const current = useRef(0);

  const send = (payload: Payload) => {
    const id = ++current.current;
    setState({ status: 'pending', data: undefined, error: null });
    options.send(payload).then(
      (result) => {
        if (id !== current.current) return;
        options.onSuccess?.(result, payload);
        setState({ status: 'success', data: result, error: null });
      },
      (error: unknown) => {
        if (id !== current.current) return;
        options.onError?.(error, payload);
        // The callback may have sent it again (after a challenge): that one is the latest now.
        if (id === current.current) setState({ status: 'error', data: undefined, error });
      },
    );
  };

  const reset = useCallback(() => {
    current.current += 1;
    setState(IDLE);
  }, []);

  return { send, reset, ...view(state) };
}
