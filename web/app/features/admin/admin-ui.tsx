import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage, useAdminAction } from './admin-api';
import { EMPTY_VALUE, statusLabel, statusTone, type StatusTone } from './admin-format';

/** Building blocks shared by the dashboard tabs. */

export const FOCUS_RING = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700';
const INPUT_CLASS =
  'w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 focus:border-emerald-700 focus:outline-none focus:ring-2 focus:ring-emerald-700/40';
export const CARD_CLASS = 'rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

/**
 * Named search parameters of the page URL (with a prefix, so tabs sharing names such as
 * `from` do not collide), read as text and written by merging: an empty value removes it.
 */
export function useUrlValues<K extends string>(names: readonly K[], prefix = '') {
  const [searchParams, setSearchParams] = useSearchParams();
  const values = Object.fromEntries(names.map((name) => [name, searchParams.get(prefix + name) ?? ''])) as Record<K, string>;
  const update = (changes: Partial<Record<K, string>>) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes) as [K, string | undefined][]) {
          if (value) next.set(prefix + name, value);
          else next.delete(prefix + name);
        }
        return next;
      },
      { preventScrollReset: true },
    );
  return [values, update] as const;
}

/** The text values of a submitted form, by name (unset ones empty). */
function formValues<K extends string>(form: HTMLFormElement, names: readonly K[]) {
  const data = new FormData(form);
  return Object.fromEntries(names.map((name) => [name, String(data.get(name) ?? '').trim()])) as Record<K, string>;
}

export function Loading({ label = 'Caricamento in corso' }: { label?: string }) {
  return (
    <div className="flex justify-center py-12">
      <Spinner label={label} />
    </div>
  );
}

export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md bg-red-50 p-3 text-sm font-medium text-red-800">
      <span>{errorMessage(error)}</span>
      {onRetry ? (
        <button type="button" className="btn-secondary" onClick={onRetry}>
          Riprova
        </button>
      ) : null}
    </div>
  );
}

/**
 * A report's answer: the spinner on the first load, the error with a retry while there is
 * no data, else the data. Data kept from the previous filters while new ones load is dimmed
 * and marked busy; an error after an earlier success shows above the data it left.
 */
export function QueryContent<T>({
  query,
  loadingLabel,
  children,
}: {
  query: UseQueryResult<T>;
  loadingLabel: string;
  children: (data: T) => ReactNode;
}) {
  const retry = () => void query.refetch();
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.data === undefined) return <ErrorNotice error={query.error} onRetry={retry} />;
  return (
    <div aria-busy={query.isPlaceholderData} className={`flex flex-col gap-4 ${query.isPlaceholderData ? 'opacity-60' : ''}`}>
      {query.isError ? <ErrorNotice error={query.error} onRetry={retry} /> : null}
      {children(query.data)}
    </div>
  );
}

/**
 * Terms and their values. `columns`: the grid's columns (by default the terms as wide as
 * the longest); long values break anywhere rather than widen the page.
 */
export function Facts({
  items,
  label,
  columns = 'grid-cols-[max-content_1fr]',
}: {
  items: readonly (readonly [string, ReactNode])[];
  label?: string;
  columns?: string;
}) {
  return (
    <dl aria-label={label} className={`grid gap-x-4 gap-y-1 text-sm ${columns}`}>
      {items.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-700">{term}</dt>
          <dd className="min-w-0 text-slate-900 [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const TONE_CLASSES: Record<StatusTone, string> = {
  success: 'bg-emerald-100 text-emerald-900',
  danger: 'bg-red-100 text-red-900',
  neutral: 'bg-slate-100 text-slate-800',
};

/** `wraps`: in a column of fixed width, a long label goes to a second line instead of overflowing. */
export function StatusBadge({ status, wraps = false }: { status: string | null; wraps?: boolean }) {
  return (
    <span
      className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${wraps ? '' : 'whitespace-nowrap'} ${TONE_CLASSES[statusTone(status)]}`}
    >
      {statusLabel(status)}
    </span>
  );
}

/** Values longer than this can be cut in a table cell: they take the keyboard focus to show in full. */
const CLIPPED_AFTER = 20;

/**
 * A value on one line, cut with an ellipsis to its cell's width; the whole value shows on
 * hover (title, and the cell wraps it) and, for values long enough to be cut, on keyboard
 * focus. Screen readers read the whole text, which is always in the page.
 */
export function ClippedText({ value }: { value: string | null }) {
  if (!value) return <>{EMPTY_VALUE}</>;
  const focusable = value.length > CLIPPED_AFTER;
  return (
    <span
      title={value}
      tabIndex={focusable ? 0 : undefined}
      className={`block truncate rounded hover:whitespace-normal hover:[overflow-wrap:anywhere] focus:whitespace-normal focus:[overflow-wrap:anywhere] ${FOCUS_RING}`}
    >
      {value}
    </span>
  );
}

interface FilterFieldProps {
  name: string;
  label: string;
  defaultValue: string;
}

export function TextFilter({ name, label, defaultValue, type = 'text' }: FilterFieldProps & { type?: 'text' | 'date' | 'search' }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={id} name={name} type={type} defaultValue={defaultValue} className={INPUT_CLASS} />
    </div>
  );
}

export function SelectFilter({
  name,
  label,
  defaultValue,
  options,
}: FilterFieldProps & { options: readonly { value: string; label: string }[] }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className={INPUT_CLASS}>
        <option value="">Tutti</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

interface Column {
  label: string;
  numeric?: boolean;
}

/** A read-only table: the first cell of each row is its header. */
export function DataTable({
  caption,
  columns,
  rows,
  empty,
}: {
  caption: string;
  columns: readonly Column[];
  rows: readonly { key: string | number; cells: readonly ReactNode[] }[];
  empty: string;
}) {
  if (rows.length === 0) return <p className="text-sm text-slate-700">{empty}</p>;
  const align = (index: number) => (columns[index]?.numeric ? 'text-right tabular-nums' : 'text-left');
  return (
    <ScrollRegion label={caption}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-100">
          <tr>
            {columns.map((column, index) => (
              <th key={column.label} scope="col" className={`px-3 py-2 font-semibold text-slate-900 ${align(index)}`}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row" className={`px-3 py-2 font-medium text-slate-900 ${align(index)}`}>
                    {cell}
                  </th>
                ) : (
                  <td key={index} className={`px-3 py-2 text-slate-800 ${align(index)}`}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** A horizontally scrollable box that keyboards can focus, so they can scroll it too. */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`overflow-x-auto rounded ${FOCUS_RING}`}>
      {children}
    </div>
  );
}

/** A titled section of a tab. */
export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={CARD_CLASS}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/**
 * A filter form of uncontrolled fields: applying hands over every named value; it is
 * rebuilt whenever the applied values change (back button, "Azzera filtri").
 */
export function FilterForm<K extends string>({
  label,
  names,
  values,
  onApply,
  children,
}: {
  label: string;
  names: readonly K[];
  values: Record<K, string>;
  onApply: (values: Record<K, string>) => void;
  children: ReactNode;
}) {
  return (
    <form
      key={names.map((name) => values[name]).join('\n')}
      aria-label={label}
      className={CARD_CLASS}
      onSubmit={(event) => {
        event.preventDefault();
        onApply(formValues(event.currentTarget, names));
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">{children}</div>
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="submit" className="btn-primary">
          Applica filtri
        </button>
        <button
          type="button"
          className="btn-secondary"
          onClick={() => onApply(Object.fromEntries(names.map((name) => [name, ''])) as Record<K, string>)}
        >
          Azzera filtri
        </button>
      </div>
    </form>
  );
}

/**
 * An admin action with a confirmation step; focus moves to "Conferma" and back to the
 * action button once the step closes. `refreshes` names the answers the action changes.
 */
export function ConfirmAction({
  label,
  question,
  url,
  refreshes,
  danger = false,
}: {
  label: string;
  question: string;
  url: string;
  refreshes: (queryUrl: string) => boolean;
  danger?: boolean;
}) {
  const action = useAdminAction(refreshes);
  const [confirming, setConfirming] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  // Focused by hand: Preact renders autoFocus as the attribute, which browsers honour only
  // while the page loads, not on a button added later.
  useEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);
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
              ref={confirm}
              type="button"
              className="btn-primary"
              onClick={() => {
                action.mutate(url);
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
