import { useEffect, type RefObject } from 'react';

/**
 * Publishes the height of a fixed overlay at the bottom of the screen (the cookie banner,
 * the activity popup on phones) as the CSS variable `cssVar` on <html>: the widgets stack
 * above the cookie banner with it, and app.css turns both into scroll padding, so that
 * anchors, focus and scrollIntoView bring a field above the overlays instead of under
 * them. An overlay that is not fixed at the current screen size publishes nothing.
 */
export function useOverlayHeight(ref: RefObject<HTMLElement | null>, cssVar: `--${string}`) {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    const measure = () => {
      const height = getComputedStyle(element).position === 'fixed' ? `${element.offsetHeight}px` : '';
      // Every write restyles the whole page: only a change is written.
      if (root.style.getPropertyValue(cssVar) === height) return;
      if (height) root.style.setProperty(cssVar, height);
      else root.style.removeProperty(cssVar);
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
      root.style.removeProperty(cssVar);
    };
  }, [ref, cssVar]);
}
