import { ADMIN_BACKGROUND_HEADER } from '@guida/shared/schemas/admin';

/**
 * Whether the admin did something (a key, a click or tap, the wheel) since the previous
 * admin request. The next request then counts as activity and renews the session; every
 * other one (polls, refetches on focus or reconnect) goes marked as background, so a
 * dashboard left open still idles out after ADMIN_IDLE_MINUTES (docs/decisions/054).
 * Opening the page counts as doing something.
 */
let acted = true;
const INPUTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
const markActed = () => {
  acted = true;
};

/** Listens for the admin's input while the dashboard is shown; the answer stops listening. */
export function trackUserActivity() {
  for (const type of INPUTS) window.addEventListener(type, markActed, { capture: true, passive: true });
  return () => {
    for (const type of INPUTS) window.removeEventListener(type, markActed, { capture: true });
  };
}

/** The headers of the next admin request: none after input, else the background mark. */
export function activityHeaders(): Record<string, string> {
  if (acted) {
    acted = false;
    return {};
  }
  return { [ADMIN_BACKGROUND_HEADER]: '1' };
}
