import { useEffect, useRef, useState } from 'react';
import { CloseButton } from '../../components/ui/close-button';
import { useOverlayHeight } from '../../lib/overlay-height';
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
  return <Notice country={entry.country} ago={minutesAgo(entry.at, shown.at)} onClose={() => setClosed(true)} />;
}

/**
 * On phones a card fixed at the bottom, above the cookie banner (whose space the page
 * keeps free for the form); from the md breakpoint the top of the widget column.
 */
function Notice({ country, ago, onClose }: { country: keyof typeof FROM; ago: string; onClose: () => void }) {
  const notice = useRef<HTMLElement>(null);
  useOverlayHeight(notice, 'activityPopup');
  return (
    <aside
      ref={notice}
      aria-label="Attività recente"
      className="fixed inset-x-3 bottom-[calc(var(--cookie-banner-height,0px)+0.75rem)] z-40 rounded-xl bg-white p-3 text-slate-900 shadow-xl ring-1 ring-slate-200 md:static md:order-first md:p-4"
    >
      <div className="-mr-2 -mt-2 flex items-start justify-between gap-3">
        <p className="pt-2 text-sm font-semibold">Guida inviata via SMS</p>
        <CloseButton label="Chiudi le notifiche di attività" onClick={onClose} />
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Un visitatore {FROM[country]} ha ricevuto la guida · {ago}
      </p>
      <p className="mt-2 inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">
        <span aria-hidden="true" className="h-2 w-2 rounded-full bg-emerald-600" />
        In tempo reale
      </p>
    </aside>
  );
}
