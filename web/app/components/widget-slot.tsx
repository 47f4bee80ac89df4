import { useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { useCookieBannerHeight } from '../lib/overlay-height';

// The slot of the page on screen, set when the page's slot element is attached.
let currentSlot: HTMLElement | null = null;
const listeners = new Set<() => void>();

function setSlot(element: HTMLElement | null) {
  currentSlot = element;
  for (const listener of listeners) listener();
}

/** The slot element's ref: one function, so React attaches it once per element. */
function attachSlot(element: HTMLElement | null) {
  if (!element) return;
  setSlot(element);
  return () => {
    if (currentSlot === element) setSlot(null);
  };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Where the page's widgets (visitor box, countdown, activity popup) live: right under the
 * guide form. On phones the slot is part of the page, so the boxes follow the form instead
 * of floating over it; from the md breakpoint it is a column fixed at the bottom left,
 * above the cookie banner, in the left half of the screen that the form column never
 * reaches (decision 031). Not `floating`: under the form at every width, for pages whose
 * text runs through the left half of wide screens (articles). The column and the popup
 * (fixed on phones) stack above the cookie banner with `--cookie-banner-height`, set here
 * rather than on <html> so that only the slot is restyled when it changes.
 */
export function WidgetSlot({ floating = true }: { floating?: boolean }) {
  const bannerHeight = useCookieBannerHeight();
  return (
    <div
      ref={attachSlot}
      style={bannerHeight ? ({ '--cookie-banner-height': `${bannerHeight}px` } as React.CSSProperties) : undefined}
      className={
        floating
          ? 'flex flex-col gap-3 empty:hidden md:fixed md:bottom-[calc(var(--cookie-banner-height,0px)+2rem)] md:left-4 md:z-30 md:w-72 md:max-w-[calc(50vw-2rem)]'
          : 'flex flex-col gap-3 empty:hidden'
      }
    />
  );
}

/** Renders `children` into the page's widget slot, and nothing where the page has none. */
export function InWidgetSlot({ children }: { children: React.ReactNode }) {
  const slot = useSyncExternalStore(subscribe, () => currentSlot, () => null);
  return slot ? createPortal(children, slot) : null;
}
