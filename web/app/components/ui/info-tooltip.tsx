import { Suspense, lazy } from 'react';
import { useAfterHydrationIdle } from '../../lib/after-hydration';

const RadixInfoTooltip = lazy(() => import('./info-tooltip-radix'));

/**
 * A small "i" button explaining a field, keyboard reachable. The prerendered page has the
 * plain button; the tooltip behaviour arrives with its code once the browser is idle after
 * hydration, so it does not add to the work of the first load.
 */
export function InfoTooltip({ label, children }: { label: string; children: React.ReactNode }) {
  const enhanced = useAfterHydrationIdle();
  const button = (
    <button
      type="button"
      aria-label={label}
      className="inline-flex h-5 w-5 items-center justify-center rounded-full border border-slate-400 text-xs font-semibold text-slate-700"
    >
      i
    </button>
  );
  if (!enhanced) return button;
  return (
    <Suspense fallback={button}>
      <RadixInfoTooltip trigger={button}>{children}</RadixInfoTooltip>
    </Suspense>
  );
}
