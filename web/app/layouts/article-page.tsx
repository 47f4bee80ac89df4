import { Link } from 'react-router';
import { PublicLayout } from './public-layout';
import { RiskDisclaimer } from './risk-disclaimer';

export const ARTICLE_DISCLAIMER = {
  title: 'Avvertenze sui rischi',
  paragraphs: [
    'Questo articolo ha scopo esclusivamente educativo e informativo e non costituisce consulenza in materia di investimenti né raccomandazione personalizzata.',
    'Ogni investimento comporta rischi, inclusa la possibile perdita del capitale. I CFD sono strumenti complessi e comportano un alto rischio di perdere denaro rapidamente a causa della leva finanziaria: la maggior parte dei conti degli investitori al dettaglio perde denaro negoziando CFD.',
  ],
};

/** The frame of an article page: breadcrumb, heading, intro, body, related pages, disclaimer. */
export function ArticlePage(props: {
  heading: string;
  intro: string;
  children: React.ReactNode;
  related?: { path: string; title: string }[];
}) {
  return (
    // Every article ends with the guide form (GuideRequestSection).
    <PublicLayout guideFormOnPage>
      {/* Reading time is tracked per part: the intro, each chapter, the form, the related pages. */}
      <article className="mx-auto max-w-3xl px-4 pt-10">
        <header data-track-section="intro">
          <nav aria-label="Percorso" className="text-sm text-slate-600">
            <Link to="/" className="underline">
              Home
            </Link>{' '}
            / <span>{props.heading}</span>
          </nav>
          <h1 className="mt-4 text-3xl font-extrabold leading-tight text-slate-900 md:text-4xl">{props.heading}</h1>
          <p className="mt-4 text-lg leading-relaxed text-slate-700">{props.intro}</p>
        </header>
        {props.children}
        {props.related?.length ? (
          <nav data-track-section="related" aria-labelledby="correlati" className="mt-12">
            <h2 id="correlati" className="text-xl font-bold">
              Approfondimenti correlati
            </h2>
            <ul className="mt-4 space-y-2">
              {props.related.map((page) => (
                <li key={page.path}>
                  <Link to={page.path} className="font-medium text-emerald-800 underline">
                    {page.title}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </article>
      <RiskDisclaimer title={ARTICLE_DISCLAIMER.title} paragraphs={ARTICLE_DISCLAIMER.paragraphs} />
    </PublicLayout>
  );
}
