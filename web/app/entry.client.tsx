import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { adaptReactTreesForPreact, runEffectsAfterRender } from './lib/preact-adapter';

adaptReactTreesForPreact({ htmlAsFragment: true });
runEffectsAfterRender();

// On its first render HydratedRouter starts decoding the page's data and suspends until it
// is decoded; React waits at the root, Preact would start over without the prerendered
// markup. Starting that render once here (it throws the decoding's promise) and waiting
// lets hydration find the data ready. Hydration, which Preact does in one piece, then
// starts in a task of its own.
try {
  HydratedRouter({});
} catch (pending) {
  if (!(pending instanceof Promise)) throw pending;
  await pending;
}
await new Promise((resolve) => setTimeout(resolve, 0));

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
