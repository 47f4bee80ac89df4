import { useState } from 'react';
import type { LiveStats } from '@guida/shared/schemas/analytics';
import { CloseButton } from '../../components/ui/close-button';

export type PageType = 'general' | 'article';

const THIS_PAGE: Record<PageType, string> = { general: 'questa pagina', article: 'questo articolo' };

/**
 * Visitors online, guides downloaded in the last 2 hours, others reading this page: real
 * figures only. A line without a figure is left out; a box without lines is not shown.
 */
export function VisitorBox({ stats, pageType = 'general' }: { stats: LiveStats; pageType?: PageType }) {
  const [closed, setClosed] = useState(false);
  // The visitor is one of the readers of the page once their own events arrived: the others
  // are the rest. Readers are counted per network address (decision 026), never more.
  const others = Math.max(0, stats.readersOfPage - 1);
  const lines = [
    stats.visitorsOnline > 0 && `${stats.visitorsOnline} ${stats.visitorsOnline === 1 ? 'visitatore' : 'visitatori'} online`,
    stats.downloadsLast2h > 0 &&
      `${stats.downloadsLast2h} ${stats.downloadsLast2h === 1 ? 'guida scaricata' : 'guide scaricate'} nelle ultime 2 ore`,
    others > 0 &&
      `${others} ${others === 1 ? 'altra persona sta' : 'altre persone stanno'} leggendo ${THIS_PAGE[pageType]}`,
  ].filter((line): line is string => Boolean(line));
  if (lines.length === 0 || closed) return null;
  return (
    <aside
      aria-label="Attività sul sito"
      className="order-last flex items-start gap-2 rounded-xl bg-white p-3 text-sm text-slate-800 shadow-lg ring-1 ring-slate-200"
    >
      <ul className="flex-1 space-y-1">
        {lines.map((line) => (
          <li key={line} className="flex items-center gap-2">
            <span aria-hidden="true" className="h-2 w-2 shrink-0 rounded-full bg-emerald-600" />
            {line}
          </li>
        ))}
      </ul>
      <CloseButton label="Chiudi le attività sul sito" onClick={() => setClosed(true)} className="-mr-1.5 -mt-1.5" />
    </aside>
  );
}
