import { useEffect, useSyncExternalStore, type RefObject } from 'react';

/** The fixed overlays at the bottom of the screen: the cookie banner, the activity popup on phones. */
type Overlay = 'cookieBanner' | 'activityPopup';

/** Their heights in px; 0 when absent or not fixed at the current screen size. */
const heights: Record<Overlay, number> = { cookieBanner: 0, activityPopup: 0 };
const listeners = new Set<() => void>();

/**
 * Anchors, focus and scrollIntoView bring a field above the overlays (scroll padding), and
 * the page's end scrolls above them (the body's bottom padding). Written as
 * properties of <html> and <body> themselves, which no element inherits: a CSS variable
 * on <html> restyled every element of the page, a task of 10–30 ms right after hydration
 * on a phone (issue 13).
 */
function publish() {
  const overlays = heights.cookieBanner + heights.activityPopup;
  document.documentElement.style.scrollPaddingBottom = overlays ? `calc(${overlays}px + var(--scroll-gap-bottom))` : '';
  document.body.style.paddingBottom = overlays ? `${overlays}px` : '';
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The cookie banner's height in px, for what stacks above it (the widget column). */
export function useCookieBannerHeight() {
  return useSyncExternalStore(
    subscribe,
    () => heights.cookieBanner,
    () => 0,
  );
}

/** Publishes the height of a fixed overlay at the bottom of the screen while it is mounted. */
export function useOverlayHeight(ref: RefObject<HTMLElement | null>, overlay: Overlay) {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const height = getComputedStyle(element).position === 'fixed' ? element.offsetHeight : 0;
      if (heights[overlay] === height) return;
      heights[overlay] = height;
      publish();
    };
    // The observer's first call comes with the next frame, once its layout is done: no
    // measuring here, which would force a layout of the page just hydrated.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // A resize can cross the breakpoint where the overlay stops being fixed.
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      heights[overlay] = 0;
      publish();
    };
  }, [ref, overlay]);
}
