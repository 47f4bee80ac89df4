import { useMutation, useQuery, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { COOKIE_CONSENT_VALIDITY_DAYS, DEFAULT_COOKIE_FLAGS, type CookieFlags } from '@guida/shared/cookie-consent-rules';
import { isSessionId } from '@guida/shared/session-id';
import { useAfterHydrationIdle } from '../../lib/after-hydration';
import { ApiError, apiRequest, getJson } from '../../lib/api-client';
import { randomId } from '../../lib/random-id';
import { useSiteSettings } from '../site-settings';
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
  /** The id the choice is recorded under on the server, once decided: the lead form sends it (decision 049). */
  sessionId: string | null;
  panelOpen: boolean;
  openPanel(): void;
  closePanel(): void;
  save(flags: Omit<CookieFlags, 'essential'>): void;
}

const CookieConsentContext = createContext<CookieConsentState | null>(null);

/** The decided choice alone: what a form sends changes far less often than the banner's state. */
type CookieChoice = Pick<CookieConsentState, 'flags' | 'sessionId'>;
const CookieChoiceContext = createContext<CookieChoice | null>(null);

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

/** What the server knows of a stored choice. */
interface ServerAnswer {
  status: Exclude<Status, 'checking'>;
  flags: CookieFlags;
}

const consentUrl = (id: string) => `/api/cookie-consent/${id}`;

/**
 * The spec's reading of the server's answer: 404 or no answer shows the banner, other
 * errors keep it hidden with the defaults. The flags are checked with the shared schema,
 * loaded here rather than with the page (it would bring zod to every first load).
 */
async function readServerChoice(url: string): Promise<ServerAnswer> {
  try {
    const [flags, { parseCookieFlags }] = await Promise.all([getJson<unknown>(url), import('./parse-cookie-flags')]);
    return { status: 'decided', flags: parseCookieFlags(flags) };
  } catch (error) {
    const hidden = error instanceof ApiError && error.status !== 404;
    return { status: hidden ? 'decided' : 'banner', flags: DEFAULT_COOKIE_FLAGS };
  }
}

async function saveChoice(id: string, flags: CookieFlags, client: QueryClient) {
  await apiRequest('POST', '/api/cookie-consent', { sessionId: id, ...flags });
  client.setQueryData<ServerAnswer>([consentUrl(id)], { status: 'decided', flags });
  writeStored({ id, savedAt: Date.now(), flags });
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
  // yet, and the first requests wait for the page to be interactive.
  const idle = useAfterHydrationIdle();
  const raw = useSyncExternalStore(subscribe, idle ? readRaw : readNothing, readNothing);
  const stored = useMemo(() => (raw === undefined ? undefined : parseStored(raw)), [raw]);
  const [panelOpen, setPanelOpen] = useState(false);

  const url = stored ? consentUrl(stored.id) : null;
  const server = useQuery({
    queryKey: [url],
    queryFn: () => readServerChoice(url!),
    enabled: url !== null,
  });
  const saving = useMutation({
    mutationFn: (flags: CookieFlags, { client }) => saveChoice(stored?.id ?? randomId(), flags, client),
    onSuccess: () => setPanelOpen(false),
    // Spec: a failed save keeps the banner and shows nothing to the visitor.
    onError: (error) => console.error('Error saving cookie consent:', error),
  });

  const status: Status = stored === undefined ? 'checking' : stored === null ? 'banner' : (server.data?.status ?? 'checking');
  const flags = (stored && server.data?.flags) || DEFAULT_COOKIE_FLAGS;
  const sessionId = (status === 'decided' && stored?.id) || null;
  const { mutate } = saving;

  const choice = useMemo<CookieChoice>(() => ({ flags, sessionId }), [flags, sessionId]);

  const value = useMemo<CookieConsentState>(
    () => ({
      status,
      flags,
      sessionId,
      panelOpen,
      openPanel: () => setPanelOpen(true),
      closePanel: () => setPanelOpen(false),
      save: (choice) => mutate({ essential: true, ...choice }),
    }),
    [status, flags, sessionId, panelOpen, mutate],
  );
  return (
    <CookieConsentContext.Provider value={value}>
      <CookieChoiceContext.Provider value={choice}>
        {children}
        {status === 'decided' && externalAnalytics ? <GoogleAnalyticsByConsent analytics={flags.analytics} /> : null}
      </CookieChoiceContext.Provider>
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

/**
 * The decided choice (flags, and the id it is recorded under) without the banner's state: a
 * component that only sends it along (the guide form) does not render again when the banner
 * appears, opens or closes.
 */
export function useCookieChoice() {
  const choice = useContext(CookieChoiceContext);
  if (!choice) throw new Error('useCookieChoice outside CookieConsentProvider');
  return choice;
}
