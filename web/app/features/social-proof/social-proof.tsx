import { lazy, Suspense } from 'react';
import { AfterHydrationIdle } from '../../lib/after-hydration';
import type { LiveWidgetsProps } from './live-widgets';

// Nothing of the widgets is in the prerendered page and they start once the page is idle:
// their code loads then, off the first load.
const LiveWidgets = lazy(() => import('./live-widgets'));

/**
 * The widgets of a page with the guide form, fed by the real live figures of that page,
 * once the page is idle; they live in the widget slot under the form.
 */
export function SocialProof(props: LiveWidgetsProps) {
  return (
    <AfterHydrationIdle>
      <Suspense fallback={null}>
        <LiveWidgets {...props} />
      </Suspense>
    </AfterHydrationIdle>
  );
}
