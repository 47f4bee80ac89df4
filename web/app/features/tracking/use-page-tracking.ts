import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { whenIdle } from '../../lib/after-hydration';
import { onPageHide, secondsOnPage, startPage, track, whenIdleOrLeaving, withoutQuery } from './tracker';
import { lastFocusedField } from './use-form-tracking';
import { visitorEnvironment } from './visitor-environment';

const secondsSince = (start: number) => Math.round((Date.now() - start) / 1000);

/**
 * A page view on every navigation (the site changes pages without reloading), a
 * page_exit with the time on page when the visitor leaves, and the time spent on each
 * section (the one at least half visible) reported when it changes and on exit.
 */
export function usePageTracking() {
  const location = useLocation();
  const previousUrl = useRef<string | null>(null);

  // Recorded once the browser is idle (hydration first), or as the visitor leaves the site,
  // and even if they have moved to another page by then: time on page counts from the view.
  useEffect(() => {
    startPage();
    const path = location.pathname;
    const referrer = previousUrl.current ?? (document.referrer ? withoutQuery(document.referrer) : null);
    previousUrl.current = `${window.location.origin}${path}`;
    whenIdleOrLeaving(() => track({ type: 'page-view', path, referrer, ...visitorEnvironment() }));
  }, [location.pathname]);

  useEffect(
    () =>
      onPageHide(() =>
        track({
          type: 'form-interaction',
          action: 'page_exit',
          path: window.location.pathname,
          timeOnPage: secondsOnPage(),
          fieldName: lastFocusedField(),
          scrollDepth: scrollDepth(),
        }),
      ),
    [],
  );

  useEffect(() => {
    const path = location.pathname;
    let current: { name: string; since: number } | null = null;
    const visible = new Map<string, number>();
    const report = () => {
      if (!current) return;
      track({ type: 'section-view', section: current.name, timeSpent: Math.min(secondsSince(current.since), 86_400), path });
    };
    let observer: IntersectionObserver | undefined;
    const observe = () => {
      observer = new IntersectionObserver(
        (entries) => {
          for (const entry of entries) {
            const name = (entry.target as HTMLElement).dataset.trackSection!;
            if (entry.intersectionRatio >= 0.5) visible.set(name, entry.intersectionRatio);
            else visible.delete(name);
          }
          const top = [...visible.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
          if (top && top !== current?.name) {
            report();
            current = { name: top, since: Date.now() };
          }
        },
        { threshold: [0, 0.5, 0.75, 1] },
      );
      for (const element of document.querySelectorAll<HTMLElement>('[data-track-section]')) observer.observe(element);
    };
    const cancelObserving = whenIdle(observe);
    const stopReportingOnHide = onPageHide(report);
    return () => {
      cancelObserving();
      report();
      observer?.disconnect();
      stopReportingOnHide();
    };
  }, [location.pathname]);
}

function scrollDepth() {
  const scrollable = document.documentElement.scrollHeight - window.innerHeight;
  return scrollable <= 0 ? 100 : Math.min(100, Math.round((window.scrollY / scrollable) * 100));
}
