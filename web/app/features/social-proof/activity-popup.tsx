import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { CloseButton } from '../../components/ui/close-button';
import { useOverlayHeight } from '../../lib/overlay-height';
import type { LiveStats } from '@guida/shared/schemas/analytics';
import { startActivityCycle } from './activity-cycle';

type Delivery = LiveStats['recentDeliveries'][number];

/** Entries older than this are news, not "In tempo reale". */
const REAL_TIME_MS = 60 * 60_000;

function minutesAgo(at: string, now: number) {
  const minutes = Math.max(0, Math.round((now - Date.parse(at)) / 60_000));
  if (minutes < 1) return 'proprio ora';
  if (minutes < 60) return minutes === 1 ? '1 minuto fa' : `${minutes} minuti fa`;
  const hours = Math.round(minutes / 60);
  return hours === 1 ? "1 ora fa" : `${hours} ore fa`;
}

const FROM = { IT: "dall'Italia", CH: 'dalla Svizzera' } as const;
const TO = { IT: "in Italia", CH: 'in Svizzera' } as const;
const keyOf = (delivery: Delivery) => `${delivery.at}|${delivery.country}`;

/**
 * Real recent SMS deliveries, anonymised: when and to which country, nothing else, each
 * once per page view. "Ha ricevuto" only for an SMS the phone reported delivered, "In tempo
 * reale" only under an hour old. With `isSwiss`, Swiss deliveries only. Nothing to show,
 * nothing shown.
 */
export function ActivityPopup({ deliveries, isSwiss = false }: { deliveries: LiveStats['recentDeliveries']; isSwiss?: boolean }) {
  const entries = isSwiss ? deliveries.filter((delivery) => delivery.country === 'CH') : deliveries;
  // The cycle reads the latest entries when it is time to show one: newest unseen first
  // (the list comes newest first).
  const nextEntry = useEffectEvent((seen: Set<string>) => entries.find((delivery) => !seen.has(keyOf(delivery))));
  // The delivery shown, and when (its "minutes ago" is computed then).
  const [shown, setShown] = useState<{ delivery: Delivery; at: number } | null>(null);
  const [closed, setClosed] = useState(false);

  useEffect(() => {
    if (closed) return;
    const seen = new Set<string>();
    const cycle = startActivityCycle({
      nextEntry: () => nextEntry(seen),
      show: (delivery) => {
        seen.add(keyOf(delivery));
        setShown({ delivery, at: Date.now() });
      },
      hide: () => setShown(null),
    });
    return () => cycle.stop();
  }, [closed]);

  if (!shown || closed) return null;
  return <Notice delivery={shown.delivery} shownAt={shown.at} onClose={() => setClosed(true)} />;
}

/**
 * On phones a card fixed at the bottom, above the cookie banner (whose space the page
 * keeps free for the form); from the md breakpoint the top of the widget column.
 */
function Notice({ delivery, shownAt, onClose }: { delivery: Delivery; shownAt: number; onClose: () => void }) {
  const notice = useRef<HTMLElement>(null);
  useOverlayHeight(notice, 'activityPopup');
  const ago = minutesAgo(delivery.at, shownAt);
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
        {delivery.delivered
          ? `Un visitatore ${FROM[delivery.country]} ha ricevuto la guida · ${ago}`
          : `Guida inviata a un visitatore ${TO[delivery.country]} · ${ago}`}
      </p>
      {shownAt - Date.parse(delivery.at) < REAL_TIME_MS ? (
        <p className="mt-2 inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800">
          <span aria-hidden="true" className="h-2 w-2 rounded-full bg-emerald-600" />
          In tempo reale
        </p>
      ) : null}
    </aside>
  );
}
