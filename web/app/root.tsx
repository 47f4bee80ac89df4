import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useState } from 'react';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLocation, useNavigation } from 'react-router';
import { FAVICON_HREF } from '@guida/shared/favicon';
import type { Route } from './+types/root';
import { rootHasHydrated } from './components/hydration-boundary';
import { Spinner } from './components/ui/spinner';
import { useToasts } from './components/ui/toast-store';
import { CookieBanner, CookieConsentProvider, CookieSettingsPanel, useCookieConsent } from './features/consent';
import { ClickIdsByConsent, recordLanding, usePageTracking, VisitSession } from './features/tracking';
import { createQueryClient } from './lib/query-client';
import { isAdminPage } from './page-paths';
import './app.css';

// Loaded the first time it is needed: nothing of it is in the prerendered HTML, and its
// code (Radix's toast) stays off the first load.
const Toaster = lazy(() => import('./components/ui/toaster'));

function OnDemand() {
  const hasToasts = useToasts().length > 0;
  const { panelOpen } = useCookieConsent();
  const [needed, setNeeded] = useState({ toaster: false, panel: false });
  if ((hasToasts && !needed.toaster) || (panelOpen && !needed.panel)) {
    setNeeded({ toaster: needed.toaster || hasToasts, panel: needed.panel || panelOpen });
  }
  return (
    <Suspense>
      {needed.panel ? <CookieSettingsPanel /> : null}
      {needed.toaster ? <Toaster /> : null}
    </Suspense>
  );
}

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: FAVICON_HREF, type: 'image/svg+xml' }];

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="it">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#047857" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** Shown at the top while the next page's code or data loads (pages change without a reload). */
function NavigationSpinner() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div className="fixed left-1/2 top-4 z-50 -translate-x-1/2 rounded-full bg-white p-2 shadow-lg">
      <Spinner />
    </div>
  );
}

export default function App() {
  // One client for the life of the page (React Query's advice for rendered apps): every
  // page, public or admin, reads and writes through it.
  const [queryClient] = useState(createQueryClient);
  // Lets browser tests (and support staff) tell the interactive page from the static HTML,
  // once the page's hydration boundaries have hydrated too.
  useEffect(rootHasHydrated, []);
  // The cookie banner, analytics and Google Analytics belong to the public site: an
  // operator at work is not a visitor to ask or to count.
  const inAdmin = isAdminPage(useLocation().pathname);
  // The page the visit landed on, before any navigation inside the site changes the address.
  useEffect(() => {
    if (!isAdminPage(window.location.pathname)) recordLanding();
  }, []);
  usePageTracking(!inAdmin);
  return (
    <QueryClientProvider client={queryClient}>
      <CookieConsentProvider externalAnalytics={!inAdmin}>
        <NavigationSpinner />
        <Outlet />
        {inAdmin ? null : (
          <>
            <CookieBanner />
            <ClickIdsByConsent />
            <VisitSession />
          </>
        )}
        <OnDemand />
      </CookieConsentProvider>
    </QueryClientProvider>
  );
}

/** While a page that is not prerendered (the admin area) loads its code. */
export function HydrateFallback() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">{notFound ? 'Page Not Found' : 'Si è verificato un errore'}</h1>
      <p className="mt-4 text-slate-700">
        {notFound
          ? 'La pagina che cerchi non esiste o è stata spostata.'
          : 'Non siamo riusciti a mostrare questa pagina. Ricarica la pagina o riprova più tardi.'}
      </p>
      <a href="/" className="btn-primary mt-8">
        Torna alla pagina iniziale
      </a>
    </main>
  );
}
