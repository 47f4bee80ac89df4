/**
 * When the recent-activity popup shows (spec): first after 10 s, visible 5 s, then again
 * after a random gap of 25–45 s. Each entry shows once per page view (a real delivery
 * shown again and again would tell of more activity than there was); when every entry has
 * been shown, the cycle waits for new ones.
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

/**
 * Calls `show(entry)` and `hide()` on schedule with the entries `nextEntry` gives, one
 * entry at a time, until it gives none; then it asks again after each gap.
 */
export function startActivityCycle<Entry>(options: {
  nextEntry(): Entry | undefined;
  show(entry: Entry): void;
  hide(): void;
  random?: () => number;
}): ActivityCycle {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const showNext = () => {
    const entry = options.nextEntry();
    if (entry === undefined) {
      timer = setTimeout(showNext, nextGapMs(options.random));
      return;
    }
    options.show(entry);
    timer = setTimeout(() => {
      options.hide();
      timer = setTimeout(showNext, nextGapMs(options.random));
    }, VISIBLE_MS);
  };
  timer = setTimeout(showNext, FIRST_DELAY_MS);
  return {
    stop() {
      clearTimeout(timer);
    },
  };
}
