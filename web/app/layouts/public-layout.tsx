import { HydrationBoundary } from '../components/hydration-boundary';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/**
 * Header, the page's <main>, footer: the frame of every public page. `guideFormOnPage`:
 * the page has the guide form (#richiedi-guida), the header's button leads to it. Each part
 * hydrates on its own, after the frame: one hydration commit for the whole page was one long
 * task on a phone.
 */
export function PublicLayout({ children, guideFormOnPage = false }: { children: React.ReactNode; guideFormOnPage?: boolean }) {
  return (
    <>
      <a href="#contenuto" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Vai al contenuto
      </a>
      <HydrationBoundary>
        <SiteHeader guideFormOnPage={guideFormOnPage} />
      </HydrationBoundary>
      <main id="contenuto">
        <HydrationBoundary>{children}</HydrationBoundary>
      </main>
      <HydrationBoundary>
        <SiteFooter />
      </HydrationBoundary>
    </>
  );
}
