import { Link } from 'react-router';
import { providerIdentityLines } from '@guida/shared/provider-identity';
import { CookiePreferencesLink } from '../features/consent';

const [PROVIDER, REGISTRATION] = providerIdentityLines(__PROVIDER_IDENTITY__);

/** Links to the legal pages, and who provides the service (d.lgs. 70/2003 art. 7), on every public page. */
export function SiteFooter() {
  return (
    <footer className="mt-16 bg-slate-900 text-sm text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-6 px-4 py-10 md:grid-cols-2">
        <div>
          <p className="font-semibold text-white">Guida Finanza</p>
          <p className="mt-2">
            Materiale esclusivamente educativo. Non costituisce consulenza in materia di investimenti né
            sollecitazione all’investimento. I CFD sono strumenti complessi e comportano un alto rischio di perdere
            denaro rapidamente a causa della leva finanziaria.
          </p>
        </div>
        <nav aria-label="Link legali" className="flex flex-col gap-2 md:items-end">
          <Link to="/privacy" className="underline hover:text-white">
            Privacy Policy
          </Link>
          <Link to="/gdpr" className="underline hover:text-white">
            I tuoi diritti (GDPR)
          </Link>
          <CookiePreferencesLink />
        </nav>
      </div>
      <div className="border-t border-slate-800 px-4 py-4 text-center text-xs text-slate-400">
        <p>{PROVIDER}</p>
        <p>{REGISTRATION}</p>
        <p className="mt-2">© {new Date().getFullYear()} Guida Finanza · Contenuti educativi, nessuna promessa di guadagno.</p>
      </div>
    </footer>
  );
}
