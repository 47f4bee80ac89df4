import type { ReactNode } from 'react';
import { ALERT_TITLES, alertDetailLines, alertTexts as t, type AlertIncident } from '@guida/shared/alerts';
import { formatDateTime, formatDuration } from '../ui/admin-format';
import { FOCUS_RING } from '../ui/admin-ui';
import { useAlertIncidents } from './alert-queries';

const openCount = (count: number) => (count === 1 ? '1 avviso aperto' : `${count} avvisi aperti`);

/** Each incident with its kind, `when` it happened and its latest measurements. */
function IncidentList({ incidents, when }: { incidents: readonly AlertIncident[]; when: (incident: AlertIncident) => ReactNode }) {
  return (
    <ul className="mt-2 space-y-3">
      {incidents.map((incident) => (
        <li key={incident.id}>
          <h3 className="font-semibold">{ALERT_TITLES[incident.kind]}</h3>
          <p className="text-sm">{when(incident)}</p>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {alertDetailLines(incident).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

/**
 * The alerts the worker opened (decision 039): a red banner above every tab while any is
 * open, with its kind, since when and its latest measurements; below it, the incidents
 * resolved in the last week behind a disclosure. A region, not a live alert, since its
 * measurements change at every refresh; a status line announces the count of open ones.
 */
export function AlertIncidents() {
  // Durations as of the last refresh (every few seconds), so a render stays pure.
  const { data, dataUpdatedAt } = useAlertIncidents();
  const open = data?.open ?? [];
  const resolved = data?.resolved ?? [];
  return (
    <>
      <p role="status" className="sr-only">
        {open.length > 0 ? openCount(open.length) : ''}
      </p>
      {open.length > 0 ? (
        <section aria-labelledby="alert-incidents-title" className="mb-4 rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900">
          <h2 id="alert-incidents-title" className="text-lg font-bold">
            {t.bannerTitle}
          </h2>
          <IncidentList
            incidents={open}
            when={(incident) =>
              `${t.since} ${formatDateTime(incident.openedAt)} (da ${formatDuration((dataUpdatedAt - Date.parse(incident.openedAt)) / 1000)})`
            }
          />
        </section>
      ) : null}
      {resolved.length > 0 ? (
        <details className="mb-4 rounded-md border border-slate-300 bg-white p-3 text-slate-800">
          <summary className={`cursor-pointer rounded-sm font-semibold ${FOCUS_RING}`}>
            {t.resolvedTitle} ({resolved.length})
          </summary>
          <IncidentList
            incidents={resolved}
            when={(incident) => `${t.since} ${formatDateTime(incident.openedAt)} · ${t.resolvedAt} ${formatDateTime(incident.resolvedAt)}`}
          />
        </details>
      ) : null}
    </>
  );
}
