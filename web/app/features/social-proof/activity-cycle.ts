/**
 * When the recent-activity popup shows (spec): first after 10 s, visible 5 s, then again
 * after a random gap of 25–45 s, cycling through the entries in order.
 */
export const FIRST_DELAY_MS = 10_000;
export const VISIBLE_MS = 5_000;
export const MIN_GAP_MS = 25_000;
export const MAX_GAP_MS = 45_000;

export function nextGapMs(random: () => number = Math.random) {
  return MIN_GAP_MS + Math.round(random() * (MAX_GAP_MS - MIN_GAP_MS));
}

export interface ActivityCycle {
  stop(): void;
}

/** Calls `show(index)` and `hide()` on schedule for `count` entries, looping, until stopped. */
export function startActivityCycle(options: {
  count: number;
  show(index: number): void;
  hide(): void;
  random?: () => number;
}): ActivityCycle {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let index = 0;
  const showNext = () => {
    options.show(index % options.count);
    index += 1;
    timer = setTimeout(() => {
      options.hide();
      timer = setTimeout(showNext, nextGapMs(options.random));
    }, VISIBLE_MS);
  };
  if (options.count > 0) timer = setTimeout(showNext, FIRST_DELAY_MS);
  return {
    stop() {
      clearTimeout(timer);
    },
  };
}
