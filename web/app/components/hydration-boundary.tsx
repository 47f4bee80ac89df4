import { Suspense, useCallback, useEffect, useLayoutEffect, useRef } from 'react';

/*
 * React hydrates a Suspense boundary of the prerendered HTML after the frame around it, in
 * a render and a commit of its own (selective hydration): a page cut into boundaries
 * hydrates in several shorter tasks instead of one long one. The document is marked
 * `data-hydrated` (for browser tests and support staff: the page is interactive) once the
 * root and every boundary of the first load have hydrated.
 */

let rootHydrated = false;
let boundariesHydrating = 0;
let marked = false;

function markWhenComplete() {
  if (marked || !rootHydrated || boundariesHydrating > 0) return;
  marked = true;
  document.documentElement.dataset.hydrated = 'true';
}

/** Called from the root's effect: the frame around the boundaries has hydrated. */
export function rootHasHydrated() {
  rootHydrated = true;
  markWhenComplete();
}

function BoundaryHydrated({ onHydrated }: { onHydrated: () => void }) {
  useEffect(onHydrated, [onHydrated]);
  return null;
}

/** A part of the page that hydrates on its own (nothing to show while it waits: it is in the HTML). */
export function HydrationBoundary({ children }: { children: React.ReactNode }) {
  const counted = useRef(false);
  const settle = useCallback(() => {
    if (!counted.current) return;
    counted.current = false;
    boundariesHydrating -= 1;
    markWhenComplete();
  }, []);
  // The frame's commit counts the boundary before React hydrates what is inside it; the
  // effect of the boundary's last child runs after the effects of everything before it. A
  // boundary removed before it hydrated (the offer ended meanwhile) no longer counts.
  useLayoutEffect(() => {
    if (marked) return;
    counted.current = true;
    boundariesHydrating += 1;
    return settle;
  }, [settle]);
  return (
    <Suspense>
      {children}
      <BoundaryHydrated onHydrated={settle} />
    </Suspense>
  );
}
