import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { inNextTask } from './next-task';

/**
 * Preact hydrates a page in one synchronous pass, and on a throttled phone that pass was
 * one long task of 140–150 ms (issue 13: every task over 50 ms blocks the visitor's
 * first taps). React would slice it; Preact resumes a subtree that suspended while
 * hydrating, leaving its prerendered markup in place until then. `HydrateInOwnTask`
 * uses that: on the first load each wrapped subtree suspends and is hydrated later, one
 * per task, in document order.
 *
 * The prerender suspends each one once too (a promise already settled): Preact's
 * renderToStringAsync then marks the subtree's range (<!--$s-->…<!--/$s-->), which lets
 * the browser keep and later hydrate any number of nodes, or none. `npm run dev` renders
 * with React, which needs neither: there nothing suspends.
 */
const PRERENDER_MARKS_RANGES = import.meta.env.PROD;

interface Slice {
  released: boolean;
  hydrated: boolean;
  promise: Promise<void>;
}

/** Props of the subtrees whose one suspension in the prerender has settled. */
const settledInPrerender = new WeakSet<object>();

let inFirstHydration = false;
/** Releases of the slices still suspended, in document order. */
const waiting: (() => void)[] = [];
let pendingSlices = 0;
let afterHydration: (() => void)[] = [];

function releaseNext() {
  const release = waiting.shift();
  if (!release) return;
  release();
  inNextTask(releaseNext);
}

/** A slice is done once hydrated, or when it goes before its turn. */
function sliceDone(slice: Slice) {
  if (slice.hydrated) return;
  slice.hydrated = true;
  pendingSlices -= 1;
  if (pendingSlices === 0 && !inFirstHydration) runAfterHydration();
}

function runAfterHydration() {
  const callbacks = afterHydration;
  afterHydration = [];
  for (const callback of callbacks) callback();
}

/**
 * Hydrates the first load: the subtrees of `HydrateInOwnTask` met during `hydrate` (which
 * must render synchronously, as Preact's hydrateRoot does) follow, each in a task of its own.
 */
export function hydrateInSlices(hydrate: () => void) {
  inFirstHydration = true;
  try {
    hydrate();
  } finally {
    inFirstHydration = false;
  }
  if (pendingSlices === 0) runAfterHydration();
  else inNextTask(releaseNext);
}

/**
 * Runs `callback` once the whole first load is hydrated, every slice's effects included
 * (at once when it already is).
 */
export function whenFullyHydrated(callback: () => void) {
  if (pendingSlices === 0 && !inFirstHydration) callback();
  else afterHydration.push(callback);
}

/** A slice of the first load's hydration, released in its turn; none after it. */
function newSlice(): Slice | null {
  if (!inFirstHydration) return null;
  pendingSlices += 1;
  let resolve!: () => void;
  const slice: Slice = { released: false, hydrated: false, promise: new Promise<void>((settle) => (resolve = settle)) };
  waiting.push(() => {
    slice.released = true;
    resolve();
  });
  return slice;
}

/** Suspends while its slice waits; a Gate that suspended is rendered anew when it resumes. */
function Gate({ slice, children }: { slice: Slice | null; children: ReactNode }) {
  if (slice && !slice.released) throw slice.promise;
  return (
    <>
      {children}
      {slice ? <Hydrated slice={slice} /> : null}
    </>
  );
}

/** Last in its slice: its effect runs after those of the slice's other components. */
function Hydrated({ slice }: { slice: Slice }) {
  useEffect(() => sliceDone(slice), [slice]);
  return null;
}

/** Suspends the prerender once, so that it marks the subtree's range. */
function PrerenderGate(props: { children: ReactNode }) {
  if (!settledInPrerender.has(props)) throw Promise.resolve().then(() => settledInPrerender.add(props));
  return props.children;
}

/**
 * Hydrates `children` in a task of its own after the rest of the first load; elsewhere
 * (a client-side navigation) renders them as they are. Until then the prerendered markup
 * stands: links and the form's native post work, handlers wait. The slice is kept here,
 * above what suspends, so that it outlives the suspended render and the parent's renders.
 */
export function HydrateInOwnTask({ children }: { children: ReactNode }) {
  const [slice] = useState(newSlice);
  useEffect(() => () => (slice ? sliceDone(slice) : undefined), [slice]);
  if (typeof document === 'undefined') {
    return PRERENDER_MARKS_RANGES ? (
      <Suspense fallback={null}>
        <PrerenderGate>{children}</PrerenderGate>
      </Suspense>
    ) : (
      children
    );
  }
  return (
    <Suspense fallback={null}>
      <Gate slice={slice}>{children}</Gate>
    </Suspense>
  );
}
