import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { whenIdle } from '../../lib/after-hydration';
import { onPageHide, secondsOnPage, startPage, track, whenIdleOrLeaving, withoutQuery } from './tracker';
import { lastFocusedField } from './use-form-tracking';
import { viewedSection } from './viewed-section';
import { visitorEnvironment } from './visitor-environment';

const secondsSince = (start: number) => Math.round((Date.now() - start) / 1000);

/**
 * A page view on every navigation (the site changes pages without reloading), a
 * page_exit with the time on page when the visitor leaves, and the time spent on each
 * section (the one being read, see viewedSection) reported when it changes and on exit.
 * Off (`enabled` false) in the admin: operators are not visitors.
 */
export function usePageTracking(enabled: boolean) {
  const location = useLocation();
  const previousUrl = useRef<string | null>(null);

  // Recorded once the browser is idle (hydration first), or as the visitor leaves the site,
  // and even if they have moved to another page by then: time on page counts from the view.
  useEffect(() => {
    if (!enabled) return;
    startPage();
    const path = location.pathname;
    const referrer = previousUrl.current ?? (document.referrer ? withoutQuery(document.referrer) : null);
    previousUrl.current = `${window.location.origin}${path}`;
    // No hero variant: the API counts the one of the tab's signed visit session (decision 051).
    whenIdleOrLeaving(() => track({ type: 'page-view', path, referrer, ...visitorEnvironment() }));
  }, [location.pathname, enabled]);

  useEffect(() => {
    if (!enabled) return;
    return onPageHide(() =>
      track({
        type: 'form-interaction',
        action: 'page_exit',
        path: window.location.pathname,
        timeOnPage: secondsOnPage(),
        fieldName: lastFocusedField(),
        scrollDepth: scrollDepth(),
      }),
    );
  }, [enabled]);

  useEffect(() => {
    if (!enabled) return;
    const path = location.pathname;
    let current: { name: string; since: number } | null = null;
    // Each report covers the time since the last one: a page hidden and shown again
    // (back-forward cache) does not count the same seconds twice.
    const report = () => {
      if (!current) return;
      track({ type: 'section-view', section: current.name, timeSpent: Math.min(secondsSince(current.since), 86_400), path });
      current.since = Date.now();
    };
    let sections: HTMLElement[] = [];
    let frame = 0;
    const update = () => {
      frame = 0;
      const boxes = sections.map((element) => {
        const { top, bottom } = element.getBoundingClientRect();
        return { name: element.dataset.trackSection!, top, bottom };
      });
      const viewed = viewedSection(boxes, window.innerHeight);
      if (viewed === (current?.name ?? null)) return;
      report();
      current = viewed ? { name: viewed, since: Date.now() } : null;
    };
    // Measured at most once a frame while the page scrolls or resizes: an observer's ratio
    // thresholds cannot tell when a section fills half the screen (that depends on its height).
    const schedule = () => {
      frame ||= requestAnimationFrame(update);
    };
    const observe = () => {
      sections = [...document.querySelectorAll<HTMLElement>('[data-track-section]')];
      window.addEventListener('scroll', schedule, { passive: true });
      window.addEventListener('resize', schedule, { passive: true });
      // Measured with the next frame, whose layout is due anyway: measuring here, in an
      // idle task that may follow a render, would force a layout of the page of its own.
      schedule();
    };
    const cancelObserving = whenIdle(observe);
    const stopReportingOnHide = onPageHide(report);
    return () => {
      cancelObserving();
      report();
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      cancelAnimationFrame(frame);
      stopReportingOnHide();
    };
  }, [location.pathname, enabled]);
}

function scrollDepth() {
  const scrollable = document.documentElement.scrollHeight - window.innerHeight;
  return scrollable <= 0 ? 100 : Math.min(100, Math.round((window.scrollY / scrollable) * 100));
}
