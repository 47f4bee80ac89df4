import { useId, useRef, useState } from 'react';
import { useAdminPost } from '../admin-api';

/**
 * An admin action with a confirmation step; focus moves to "Conferma" and back to the
 * action button once the step closes. `refreshes` names the answers the action changes;
 * `body` is posted as JSON, and `onDone` runs once the action succeeded.
 */
export function ConfirmAction({
  label,
  question,
  url,
  body,
  refreshes,
  onDone,
  danger = false,
}: {
  label: string;
  question: string;
  url: string;
  body?: Record<string, unknown>;
  refreshes: (queryUrl: string) => boolean;
  onDone?: () => void;
  danger?: boolean;
}) {
  const action = useAdminPost(refreshes);
  const [confirming, setConfirming] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  const close = () => {
    setConfirming(false);
    trigger.current?.focus();
  };
  return (
    <div>
      <button
        ref={trigger}
        type="button"
        className="btn-secondary"
        aria-expanded={confirming}
        // aria-disabled rather than disabled: the button keeps focus while the request runs.
        aria-disabled={action.isPending}
        onClick={() => {
          if (!action.isPending) setConfirming(true);
        }}
      >
        {action.isPending ? 'Invio in corso...' : label}
      </button>
      {confirming ? (
        <div
          role="group"
          aria-labelledby={questionId}
          className={`mt-2 max-w-md rounded-md border p-3 ${danger ? 'border-red-400 bg-white' : 'border-amber-400 bg-amber-50'}`}
        >
          <p id={questionId} className="text-sm text-slate-900">
            {question}
          </p>
          <div className="mt-3 flex gap-2">
            <button
              // React focuses it as it appears.
              autoFocus
              type="button"
              className="btn-primary"
              onClick={() => {
                action.mutate(body === undefined ? { url } : { url, body }, onDone ? { onSuccess: onDone } : undefined);
                close();
              }}
            >
              Conferma
            </button>
            <button type="button" className="btn-secondary" onClick={close}>
              Annulla
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
