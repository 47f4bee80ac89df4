import { Link } from 'react-router';
import { trackCtaClick } from '../features/tracking';

/**
 * Logo and the main call to action: to the guide form of this page, or to the home
 * page's form on pages without one (privacy, thank-you pages, 404...).
 */
export function SiteHeader({ guideFormOnPage }: { guideFormOnPage: boolean }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3">
        <Link to="/" className="text-lg font-bold text-slate-900">
          Guida<span className="text-emerald-700">Finanza</span>
        </Link>
        {guideFormOnPage ? (
          <a href="#richiedi-guida" onClick={() => trackCtaClick('header')} className="btn-primary">
            Richiedi la guida
          </a>
        ) : (
          <Link to="/#richiedi-guida" onClick={() => trackCtaClick('header')} className="btn-primary">
            Richiedi la guida
          </Link>
        )}
      </div>
    </header>
  );
}
