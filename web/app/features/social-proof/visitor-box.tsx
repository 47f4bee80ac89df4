import type { LiveStats } from '@guida/shared/schemas/analytics';

export type PageType = 'general' | 'article';

const THIS_PAGE: Record<PageType, string> = { general: 'questa pagina', article: 'questo articolo' };

/**
 * Visitors online, guides downloaded in the last 2 hours, others reading this page: real
 * figures only. A line without a figure is left out; a box without lines is not shown.
 */
export function VisitorBox({ stats, pageType = 'general' }: { stats: LiveStats; pageType?: PageType }) {
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
  if (lines.length === 0) return null;
  return (
    <aside
      aria-label="Attività sul sito"
      className="fixed bottom-4 left-4 z-30 max-w-[15rem] rounded-xl bg-white/95 p-3 text-xs text-slate-800 shadow-lg ring-1 ring-slate-200 sm:text-sm"
    >
      <ul className="space-y-1">
        {lines.map((line) => (
          <li key={line} className="flex items-center gap-2">
            <span aria-hidden="true" className="h-2 w-2 shrink-0 rounded-full bg-emerald-600" />
            {line}
          </li>
        ))}
      </ul>
    </aside>
  );
}
