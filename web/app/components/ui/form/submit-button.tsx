import type { ReactNode } from 'react';

/**
 * A form's submit button: off, with the pending label, while the form is being sent
 * (the spec's "Invio in corso...").
 */
export function SubmitButton({
  pending,
  pendingLabel,
  disabled = false,
  className = '',
  children,
}: {
  pending: boolean;
  pendingLabel: ReactNode;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" disabled={pending || disabled} className={`btn-primary ${className}`}>
      {pending ? pendingLabel : children}
    </button>
  );
}
