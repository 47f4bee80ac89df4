import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Header, the page's <main>, footer: the frame of every public page. */
export function PublicLayout({ children }: { children: React.ReactNode }) {
  return (
    <>
      <a href="#contenuto" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Vai al contenuto
      </a>
      <SiteHeader />
      <main id="contenuto">{children}</main>
      <SiteFooter />
    </>
  );
}
