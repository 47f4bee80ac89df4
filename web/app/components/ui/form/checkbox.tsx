import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { ErrorText } from './error-text';

type CheckboxProps = { label: ReactNode; error?: string | undefined } & Omit<ComponentPropsWithRef<'input'>, 'type'>;

/** A checkbox with its label beside it and its message under it (consents, confirmations). */
export function Checkbox({ label, error, id, ...input }: CheckboxProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          {...input}
          id={inputId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-1 h-5 w-5 shrink-0 accent-emerald-700"
        />
        <label htmlFor={inputId} className="text-sm text-slate-700">
          {label}
        </label>
      </div>
      {error ? <ErrorText id={errorId}>{error}</ErrorText> : null}
    </div>
  );
}
