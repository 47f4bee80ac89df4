import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { COOKIE_CONSENT_VALIDITY_DAYS, DEFAULT_COOKIE_FLAGS, type CookieFlags } from '@guida/shared/cookie-consent-rules';
import { isSessionId } from '@guida/shared/session-id';
import { useAfterHydrationIdle } from '../../lib/after-hydration';
import { ApiError, apiRequest, getJson } from '../../lib/api-client';
import { randomId } from '../../lib/random-id';
import { useSiteSettings } from '../site-settings/use-site-settings';
import { disableGoogleAnalytics, loadGoogleAnalytics } from './google-analytics';

/**
 * The visitor's cookie choice: kept in localStorage for six months (so it holds across
 * tabs and visits) and recorded on the server, append-only, as proof of consent.
 */
const STORAGE_KEY = 'guida-cookie-consent';
const VALIDITY_MS = COOKIE_CONSENT_VALIDITY_DAYS * 24 * 3600 * 1000;

interface StoredChoice {
  id: string;
  savedAt: number;
  flags: CookieFlags;
}

type Status = 'checking' | 'banner' | 'decided';

interface CookieConsentState {
  status: Status;
  flags: CookieFlags;
  panelOpen: boolean;
  openPanel(): void;
  closePanel(): void;
  save(flags: Omit<CookieFlags, 'essential'>): Promise<void>;
}

const CookieConsentContext = createContext<CookieConsentState | null>(null);

// The stored choice as an external store: other tabs change it through "storage" events,
// this tab through `writeStored`.
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
const readNothing = () => undefined;
const readRaw = () => {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
};
function writeStored(choice: StoredChoice) {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(choice));
  for (const listener of listeners) listener();
}
function parseStored(raw: string | null): StoredChoice | null {
  if (!raw) return null;
  try {
    const stored = JSON.parse(raw) as StoredChoice;
    // An id the server would refuse (an older, shorter one) is asked again with a new id.
    return isSessionId(stored.id) && Date.now() - stored.savedAt < VALIDITY_MS ? stored : null;
  } catch {
    return null;
  }
}

interface ServerAnswer {
  id: string;
  status: Exclude<Status, 'checking'>;
  flags: CookieFlags;
}

export function CookieConsentProvider({
  children,
  externalAnalytics,
}: {
  children: React.ReactNode;
  /** False in the admin: Google Analytics is never loaded there, whatever was chosen. */
  externalAnalytics: boolean;
}) {
  // undefined while prerendered, hydrating and until the page is idle: nothing is known
  // yet. Reading the choice during hydration would make React re-render synchronously
  // right after it, in the same long task.
  const idle = useAfterHydrationIdle();
  const raw = useSyncExternalStore(subscribe, idle ? readRaw : readNothing, readNothing);
  const stored = useMemo(() => (raw === undefined ? undefined : parseStored(raw)), [raw]);
  const [answer, setAnswer] = useState<ServerAnswer | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);

  // Asks the server for this visitor's choice (spec): 404 or no answer shows the banner,
  // other errors keep it hidden with the defaults. The answer is checked with the shared
  // schema, loaded here rather than with the page (it would bring zod to every first load).
  const storedId = stored?.id;
  useEffect(() => {
    if (!storedId) return;
    let cancelled = false;
    Promise.all([getJson<unknown>(`/api/cookie-consent/${storedId}`), import('./parse-cookie-flags')])
      .then(([flags, { parseCookieFlags }]) => {
        if (!cancelled) setAnswer({ id: storedId, status: 'decided', flags: parseCookieFlags(flags) });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        const hidden = error instanceof ApiError && error.status !== 404;
        setAnswer({ id: storedId, status: hidden ? 'decided' : 'banner', flags: DEFAULT_COOKIE_FLAGS });
      });
    return () => {
      cancelled = true;
    };
  }, [storedId]);

  const known = stored && answer?.id === stored.id ? answer : null;
  const status: Status = stored === undefined ? 'checking' : stored === null ? 'banner' : (known?.status ?? 'checking');
  const flags = known?.flags ?? DEFAULT_COOKIE_FLAGS;

  const save = useCallback(
    async (choice: Omit<CookieFlags, 'essential'>) => {
      const id = stored?.id ?? randomId();
      const next: CookieFlags = { essential: true, ...choice };
      try {
        await apiRequest('POST', '/api/cookie-consent', { sessionId: id, ...next });
      } catch (error) {
        // Spec: a failed save keeps the banner and shows nothing to the visitor.
        console.error('Error saving cookie consent:', error);
        return;
      }
      setAnswer({ id, status: 'decided', flags: next });
      setPanelOpen(false);
      writeStored({ id, savedAt: Date.now(), flags: next });
    },
    [stored],
  );

  const value = useMemo<CookieConsentState>(
    () => ({
      status,
      flags,
      panelOpen,
      openPanel: () => setPanelOpen(true),
      closePanel: () => setPanelOpen(false),
      save,
    }),
    [status, flags, panelOpen, save],
  );
  return (
    <CookieConsentContext.Provider value={value}>
      {children}
      {status === 'decided' && externalAnalytics ? <GoogleAnalyticsByConsent analytics={flags.analytics} /> : null}
    </CookieConsentContext.Provider>
  );
}

/** Loads (or disables) the external analytics script per the choice, when one is configured. */
function GoogleAnalyticsByConsent({ analytics }: { analytics: boolean }) {
  const { data: settings } = useSiteSettings();
  const gaId = settings?.gaMeasurementId ?? null;
  useEffect(() => {
    if (!gaId) return;
    if (analytics) loadGoogleAnalytics(gaId);
    else disableGoogleAnalytics(gaId);
  }, [gaId, analytics]);
  return null;
}

export function useCookieConsent() {
  const state = useContext(CookieConsentContext);
  if (!state) throw new Error('useCookieConsent outside CookieConsentProvider');
  return state;
}
