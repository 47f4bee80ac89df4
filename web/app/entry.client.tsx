import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { hydrateInSlices } from './lib/hydration-slices';
import { inNextTask } from './lib/next-task';
import { adaptReactTreesForPreact, runEffectsAfterRender } from './lib/preact-adapter';

adaptReactTreesForPreact({ htmlAsFragment: true });
runEffectsAfterRender();

const nextTask = () => new Promise<void>((resolve) => inNextTask(resolve));

// On its first render HydratedRouter starts decoding the page's data and suspends until it
// is decoded; React waits at the root, Preact would start over without the prerendered
// markup. Starting that render once here (it throws the decoding's promise) and waiting
// lets hydration find the data ready.
try {
  HydratedRouter({});
} catch (pending) {
  if (!(pending instanceof Promise)) throw pending;
  await pending;
}
await nextTask();
if (import.meta.env.PROD) {
  // The second call builds the router, which HydratedRouter keeps for its render, in a
  // task of its own: some 10 ms at full speed, which made the hydration task long on a
  // throttled phone (decision 044). Called outside a render, it then stops at its first
  // hook; an error of the router itself recurs where hydration renders it. Builds only:
  // React (`npm run dev`) reports the misplaced hook.
  try {
    HydratedRouter({});
  } catch {
    // Expected: the hook outside a render.
  }
  await nextTask();
}

// Hydration, which Preact does in one piece, starts in a task of its own; the subtrees
// of HydrateInOwnTask follow one per task (decision 044).
hydrateInSlices(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  }),
);
