import { useEffect, useState } from 'react';
import type { LiveStats } from '@guida/shared/schemas/analytics';
import { startActivityCycle } from './activity-cycle';

function minutesAgo(at: string, now: number) {
  const minutes = Math.max(0, Math.round((now - Date.parse(at)) / 60_000));
  if (minutes < 1) return 'proprio ora';
  if (minutes < 60) return minutes === 1 ? '1 minuto fa' : `${minutes} minuti fa`;
  const hours = Math.round(minutes / 60);
  return hours === 1 ? "1 ora fa" : `${hours} ore fa`;
}

const FROM = { IT: "dall'Italia", CH: 'dalla Svizzera' } as const;

/**
 * Real recent SMS deliveries, anonymised: when and to which country, nothing else. With
 * `isSwiss`, Swiss deliveries only. Nothing to show, nothing shown.
 */
export function ActivityPopup({ deliveries, isSwiss = false }: { deliveries: LiveStats['recentDeliveries']; isSwiss?: boolean }) {
  const entries = isSwiss ? deliveries.filter((delivery) => delivery.country === 'CH') : deliveries;
  // Which entry is shown, and since when (its "minutes ago" is computed then).
  const [shown, setShown] = useState<{ index: number; at: number } | null>(null);
  const [closed, setClosed] = useState(false);
  const count = entries.length;

  useEffect(() => {
    if (closed || count === 0) return;
    const cycle = startActivityCycle({
      count,
      show: (index) => setShown({ index, at: Date.now() }),
      hide: () => setShown(null),
    });
    return () => cycle.stop();
  }, [count, closed]);

  const entry = shown === null || closed ? undefined : entries[shown.index];
  if (!entry || !shown) return null;
  return (
    <aside
      aria-label="Attività recente"
      className="fixed right-4 top-4 z-40 w-72 max-w-[calc(100vw-2rem)] rounded-xl bg-white p-4 text-slate-900 shadow-xl ring-1 ring-slate-200"
    >
      <div className="flex items-start justify-between gap-3">
        <p className="text-sm font-semibold">Guida inviata via SMS</p>
        <button
          type="button"
          onClick={() => setClosed(true)}
          aria-label="Chiudi le notifiche di attività"
          className="-mr-1 -mt-1 rounded px-1 text-lg leading-none text-slate-600 hover:text-slate-900"
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Un visitatore {FROM[entry.country]} ha ricevuto la guida · {minutesAgo(entry.at, shown.at)}
      </p>
      <p className="mt-2 inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">
        <span aria-hidden="true" className="h-2 w-2 rounded-full bg-emerald-600" />
        In tempo reale
      </p>
    </aside>
  );
}
