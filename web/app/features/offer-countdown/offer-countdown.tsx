import { useEffect, useState } from 'react';
import { CloseButton } from '../../components/ui/close-button';
import { useSiteSettings } from '../site-settings';

/** Below this many seconds the countdown turns urgent (spec). */
export const URGENT_BELOW_SECONDS = 300;

export function formatRemaining(totalSeconds: number): string {
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  if (days > 0) return `${days} ${days === 1 ? 'giorno' : 'giorni'} ${two(hours)}:${two(minutes)}:${two(seconds)}`;
  if (hours > 0) return `${two(hours)}:${two(minutes)}:${two(seconds)}`;
  return `${two(minutes)}:${two(seconds)}`;
}

/**
 * Where the countdown stands at `now`: seconds left to the configured deadline (never a
 * restart: a passed or missing deadline means no countdown), urgent in the last 5 minutes.
 */
export function countdownState(endsAt: number, now: number) {
  const remaining = Number.isNaN(endsAt) ? 0 : Math.floor((endsAt - now) / 1000);
  return { counting: remaining > 0, remaining: Math.max(0, remaining), urgent: remaining > 0 && remaining < URGENT_BELOW_SECONDS };
}

export interface OfferCountdownProps {
  title?: string;
  subtitle?: string;
  showIcon?: boolean;
  /** Free places of the campaign, shown in the same box (null: no cap configured). */
  places?: { remaining: number; total: number } | null;
}

/**
 * Counts down to the real end of the offer (OFFER_ENDS_AT): the same deadline on every
 * reload, never restarted, hidden when no deadline is set or it has passed, and once the
 * offer has ended.
 */
export function OfferCountdown({
  title = 'Offerta Limitata',
  subtitle = 'Questa opportunità scade tra:',
  showIcon = true,
  places = null,
}: OfferCountdownProps) {
  const { data: settings } = useSiteSettings();
  const endsAt = settings?.offerEndsAt ? Date.parse(settings.offerEndsAt) : Number.NaN;
  const [now, setNow] = useState(() => Date.now());
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    if (Number.isNaN(endsAt)) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [endsAt]);

  const { counting, remaining, urgent } = countdownState(endsAt, now);
  const showPlaces = places !== null && places.remaining > 0;
  // An offer that has ended (decision 047), by the site settings or by the live places
  // (read every 30 s, sooner than the settings): nothing to count down to.
  if ((!counting && !showPlaces) || closed || settings?.offerEnded || places?.remaining === 0) return null;
  return (
    <aside
      aria-label={counting ? title : 'Posti gratuiti'}
      className={`relative rounded-xl p-4 pr-10 shadow-xl ring-1 ${
        urgent ? 'animate-pulse bg-red-700 text-white ring-red-800' : 'bg-white text-slate-900 ring-slate-200'
      }`}
    >
      <CloseButton label="Chiudi il riquadro dell’offerta" onClick={() => setClosed(true)} onRed={urgent} className="absolute right-1 top-1" />
      {counting ? (
        <>
          <p className="flex items-center gap-2 text-sm font-bold">
            {showIcon ? <span aria-hidden="true">⏱</span> : null}
            {title}
          </p>
          <p className={`mt-1 text-xs ${urgent ? 'text-red-50' : 'text-slate-700'}`}>{subtitle}</p>
          <p className="mt-1 font-mono text-2xl font-bold tabular-nums" role="timer" aria-live="off">
            {formatRemaining(remaining)}
          </p>
          {urgent ? <p className="mt-1 text-xs font-semibold">ULTIMI MINUTI! Non perdere questa opportunità!</p> : null}
        </>
      ) : null}
      {showPlaces ? (
        <p className={`text-sm font-semibold ${counting ? 'mt-2' : ''}`}>
          Posti gratuiti rimasti: {places.remaining} su {places.total}
        </p>
      ) : null}
    </aside>
  );
}
