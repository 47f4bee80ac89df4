import { useEffect, type RefObject } from 'react';
import { secondsOnPage, track, whenIdleOrLeaving, withoutQuery } from './tracker';
import { campaignMetadata } from './attribution';

let focusedField: string | null = null;
/** The last form field the visitor was in: where they abandoned, if they leave. */
export const lastFocusedField = () => focusedField;

/**
 * The funnel of one form: landing, form_view (at least 30 % visible), form_start (focus on
 * nome), then submit and outcome, with the matching form actions. The landing carries the
 * visit's campaign, which splits the admin's funnel with the hero variant the API adds
 * from the tab's signed visit session (decision 051).
 */
export function useFormTracking(form: RefObject<HTMLFormElement | null>, landingPath: string) {
  useEffect(() => {
    const element = form.current;
    if (!element) return;
    const metadata = {
      path: landingPath,
      referrer: document.referrer ? withoutQuery(document.referrer) : null,
      ...campaignMetadata(),
    };
    // The landing and the form's visibility are recorded once the page is idle, or at
    // the first focus or the exit if that comes sooner, so the funnel keeps its order.
    let observer: IntersectionObserver | undefined;
    const land = () => {
      if (observer) return;
      track({ type: 'conversion', step: 'landing', metadata });
      let seen = false;
      observer = new IntersectionObserver(
        (entries) => {
          if (seen || !entries.some((entry) => entry.intersectionRatio >= 0.3)) return;
          seen = true;
          track({ type: 'conversion', step: 'form_view', metadata });
          track({ type: 'form-interaction', action: 'view_form', path: landingPath, timeOnPage: secondsOnPage() });
          observer?.disconnect();
        },
        { threshold: [0.3] },
      );
      observer.observe(element);
    };
    const cancelLanding = whenIdleOrLeaving(land);

    let started = false;
    const typed = new Set<string>();
    const onFocus = (event: FocusEvent) => {
      const name = (event.target as HTMLInputElement).name;
      if (!name) return;
      land();
      focusedField = name;
      if (name === 'nome' && !started) {
        started = true;
        track({ type: 'conversion', step: 'form_start', metadata });
      }
    };
    const onInput = (event: Event) => {
      const name = (event.target as HTMLInputElement).name;
      if (!name || typed.has(name)) return;
      typed.add(name);
      track({ type: 'form-interaction', action: 'start_typing', fieldName: name, path: landingPath, timeOnPage: secondsOnPage() });
    };
    element.addEventListener('focusin', onFocus);
    element.addEventListener('input', onInput);
    return () => {
      cancelLanding();
      observer?.disconnect();
      element.removeEventListener('focusin', onFocus);
      element.removeEventListener('input', onInput);
    };
  }, [form, landingPath]);

  return {
    /** Every press of the submit button, valid or not. */
    attempted() {
      track({ type: 'form-interaction', action: 'submit_attempt', path: landingPath, timeOnPage: secondsOnPage() });
    },
    /** Valid data sent to the API. */
    submitted() {
      track({ type: 'conversion', step: 'form_submit', metadata: { path: landingPath } });
    },
    succeeded() {
      focusedField = null;
      track({ type: 'conversion', step: 'success', metadata: { path: landingPath } });
      track({ type: 'form-interaction', action: 'submit_success', path: landingPath, timeOnPage: secondsOnPage() });
    },
    failed(errorMessage: string) {
      track({ type: 'form-interaction', action: 'submit_error', errorMessage, path: landingPath, timeOnPage: secondsOnPage() });
    },
  };
}

/** A click on a call to action (the header button, the scroll-to-form button). */
export function trackCtaClick(name: string) {
  track({ type: 'form-interaction', action: 'cta_click', fieldName: name, path: window.location.pathname, timeOnPage: secondsOnPage() });
}
