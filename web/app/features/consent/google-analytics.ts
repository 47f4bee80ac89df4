/**
 * Google Analytics 4, loaded only after the visitor accepted analytics cookies and only
 * when the operator configured GA_MEASUREMENT_ID. The bootstrap lives here, not in an
 * inline script, so the CSP needs no 'unsafe-inline'.
 */
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
    [disableFlag: `ga-disable-${string}`]: boolean | undefined;
  }
}

const SCRIPT_ID = 'google-analytics';

export function loadGoogleAnalytics(measurementId: string) {
  window[`ga-disable-${measurementId}`] = false;
  if (document.getElementById(SCRIPT_ID)) return;
  window.dataLayer = window.dataLayer ?? [];
  window.gtag = function gtag() {
    // gtag.js reads the arguments object itself, not an array.
    // eslint-disable-next-line prefer-rest-params
    window.dataLayer!.push(arguments);
  };
  window.gtag('js', new Date());
  window.gtag('config', measurementId, { anonymize_ip: true });
  const script = document.createElement('script');
  script.id = SCRIPT_ID;
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  document.head.appendChild(script);
}

/** After consent is withdrawn: GA stops sending and its cookies go. */
export function disableGoogleAnalytics(measurementId: string) {
  window[`ga-disable-${measurementId}`] = true;
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name && (name === '_ga' || name.startsWith('_ga_'))) {
      document.cookie = `${name}=; Max-Age=0; path=/; domain=${location.hostname.replace(/^www\./, '')}`;
      document.cookie = `${name}=; Max-Age=0; path=/`;
    }
  }
}

/** A named GA event, sent only when GA is loaded (spec: only when the function exists). */
export function trackGaEvent(action: string, params: { category?: string; label?: string; value?: number } = {}) {
  window.gtag?.('event', action, {
    event_category: params.category,
    event_label: params.label,
    value: params.value,
  });
}
