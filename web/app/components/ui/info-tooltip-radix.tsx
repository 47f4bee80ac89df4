import { Tooltip } from 'radix-ui';

/**
 * The Radix tooltip behind InfoTooltip, loaded after hydration. Timings of the spec:
 * opens after 700 ms, 300 ms skip delay.
 */
export default function RadixInfoTooltip({ trigger, children }: { trigger: React.ReactElement; children: React.ReactNode }) {
  return (
    <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>{trigger}</Tooltip.Trigger>
        <Tooltip.Portal>
          <Tooltip.Content sideOffset={6} className="z-50 max-w-xs rounded-md bg-slate-900 px-3 py-2 text-sm text-white shadow-lg">
            {children}
            <Tooltip.Arrow className="fill-slate-900" />
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}
