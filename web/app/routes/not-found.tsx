import { Link } from 'react-router';
import { notFoundPage } from '@guida/shared/messages';
import { PublicLayout } from '../layouts/public-layout';

/** Any unknown path. Prerendered at /404; the API serves it with HTTP 404. */
export const meta = () => [{ title: notFoundPage.title }, { name: 'robots', content: 'noindex' }];

export default function NotFound() {
  return (
    <PublicLayout>
      <div className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold">{notFoundPage.title}</h1>
        <p className="mt-4 text-slate-700">{notFoundPage.text}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/" className="btn-primary">
            {notFoundPage.backHome}
          </Link>
          <Link to="/educazione-investimenti" className="btn-secondary">
            Scopri le guide gratuite
          </Link>
        </div>
      </div>
    </PublicLayout>
  );
}
