import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/**
 * Header, the page's <main>, footer: the frame of every public page. `guideFormOnPage`:
 * the page has the guide form (#richiedi-guida), the header's button leads to it.
 */
export function PublicLayout({ children, guideFormOnPage = false }: { children: React.ReactNode; guideFormOnPage?: boolean }) {
  return (
    <>
      <a href="#contenuto" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Vai al contenuto
      </a>
      <SiteHeader guideFormOnPage={guideFormOnPage} />
      <main id="contenuto">{children}</main>
      <SiteFooter />
    </>
  );
}
