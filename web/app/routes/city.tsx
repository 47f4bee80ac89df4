import { data } from 'react-router';
import { ArticleBody } from '../components/article-body';
import { ArticlePage } from '../layouts/article-page';
import { GuideRequestSection } from '../layouts/guide-request-section';
import { cityPages } from '../content/cities';
import type { ArticleSection, CityPage } from '../content/types';
import { SocialProof } from '../features/social-proof';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import type { Route } from './+types/city';

/** The sections every city page shares, written around the city's name. */
function citySections(city: CityPage): ArticleSection[] {
  return [
    { heading: `Investire e fare trading ${city.inCity}`, paragraphs: city.localParagraphs },
    {
      heading: 'Prima di tutto: capire i rischi',
      paragraphs: [
        'Trading significa comprare e vendere strumenti finanziari con un orizzonte spesso breve. Richiede tempo, metodo e la capacità di accettare perdite: nessuna strategia elimina il rischio e i risultati passati non garantiscono quelli futuri.',
        'I prodotti con leva finanziaria, come i CFD, amplificano sia i guadagni sia le perdite. Sono strumenti complessi e la maggior parte dei conti degli investitori al dettaglio perde denaro negoziandoli: conviene conoscerli bene prima di valutarli.',
      ],
    },
    {
      heading: 'Come scegliere un intermediario',
      paragraphs: [
        `Chi vive ${city.inCity} può operare solo tramite intermediari autorizzati. In Italia l'elenco è consultabile sul sito della CONSOB, che pubblica anche gli avvisi sui siti abusivi oscurati; per la Svizzera il riferimento è la FINMA.`,
        'Diffida di chi promette rendimenti sicuri, ti contatta senza che tu l’abbia chiesto o ti mette fretta: sono i segnali tipici delle truffe finanziarie.',
      ],
      bullets: [
        'verifica l’autorizzazione dell’intermediario sul sito dell’autorità di vigilanza',
        'leggi i documenti informativi e i costi prima di aprire un conto',
        'inizia con un conto demo per capire come funziona una piattaforma',
        'non investire denaro di cui potresti avere bisogno a breve',
      ],
    },
  ];
}

export function loader({ url }: Route.LoaderArgs) {
  const path = pathOf(url);
  const city = cityPages.find((page) => page.path === path);
  if (!city) throw data(null, { status: 404 });
  return { city, sections: citySections(city), seo: pageSeo(path, city) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export default function City({ loaderData }: Route.ComponentProps) {
  const { city, sections } = loaderData;
  return (
    <>
      <ArticlePage heading={city.heading} intro={city.intro}>
        <ArticleBody sections={sections} />
        <GuideRequestSection
          title={`Impara le basi prima di iniziare ${city.inCity}`}
          text="La guida gratuita spiega come funzionano i mercati, i rischi della leva e come riconoscere un intermediario autorizzato."
          ebookType="general"
          landingPath={city.path}
        />
      </ArticlePage>
      <SocialProof path={city.path} pageType="article" />
    </>
  );
}
