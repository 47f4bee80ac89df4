import { useId, type ReactNode } from 'react';
import { EMPTY_VALUE, statusLabel, statusTone, type StatusTone } from './admin-format';

/** Presentational building blocks shared by the dashboard tabs. */

export const FOCUS_RING = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700';
export const CARD_CLASS = 'rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

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

