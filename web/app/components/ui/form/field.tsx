import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { ErrorText } from './error-text';

/** Every text field, select and text area of the site: one look, one focus ring, one error state. */
const CONTROL_CLASS =
  'w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 focus:border-emerald-700 focus:outline-none focus:ring-2 focus:ring-emerald-700/40 aria-[invalid=true]:border-red-700';
/** Visitors' forms use the phone-friendly 16 px (no zoom on focus); the admin's dense filters 14 px. */
const TEXT_SIZE = { base: 'text-base', sm: 'text-sm' } as const;

interface FieldFrame {
  label: ReactNode;
  /** A line under the label that the control is described by (a hint). */
  description?: ReactNode;
  /** Beside the label (a help toggletip). */
  aside?: ReactNode;
  /** The field's message; the control is marked invalid and described by it. */
  error?: string | undefined;
  size?: keyof typeof TEXT_SIZE;
}

/** `size` is the text size above, not the native width in characters of an input or a select. */
export type FieldProps = FieldFrame &
  (
    | ({ as?: 'input' } & Omit<ComponentPropsWithRef<'input'>, 'size'>)
    | ({ as: 'select' } & Omit<ComponentPropsWithRef<'select'>, 'size'>)
    | ({ as: 'textarea' } & ComponentPropsWithRef<'textarea'>)
  );

/**
 * A labelled control with its description and error: `<Field label="Email" type="email"
 * error={errors.email?.message} {...register('email')} />`. react-hook-form's `register`
 * spreads its name, ref and handlers onto the control.
 */
export function Field({ label, description, aside, error, size = 'base', as = 'input', id, className = '', ...control }: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  const describedBy = [description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const shared = {
    id: controlId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    className: `${CONTROL_CLASS} ${TEXT_SIZE[size]} ${className}`,
  };
  const Control = as as 'input';
  return (
    <div>
      <div className="mb-1 flex flex-wrap items-center gap-2">
        <label htmlFor={controlId} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        {aside}
      </div>
      {description ? (
        <p id={descriptionId} className="mb-1 text-sm text-slate-700">
          {description}
        </p>
      ) : null}
      <Control {...(control as ComponentPropsWithRef<'input'>)} {...shared} />
      {error ? <ErrorText id={errorId}>{error}</ErrorText> : null}
    </div>
  );
}
