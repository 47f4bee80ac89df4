import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../admin-api';

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
