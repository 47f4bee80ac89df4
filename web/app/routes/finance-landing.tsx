import { LandingPage } from '../layouts/landing-page';
import { SocialProof } from '../features/social-proof';
import { financeLanding } from '../content/landings';
import { landingForVariant } from '../hero-experiment.server';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import type { Route } from './+types/finance-landing';

/** Personal-finance landing page: /, /trading-automatico, /ai-trading-native, /trading-news-native. */
export function loader({ url, params }: Route.LoaderArgs) {
  const landing = landingForVariant(financeLanding, pathOf(url), params);
  return { ...landing, seo: pageSeo(landing.landingPath, financeLanding) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export default function FinanceLanding({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <LandingPage
        content={loaderData.content}
        landingPath={loaderData.landingPath}
        heroVariant={loaderData.heroVariant}
        variant="newer"
        ebookType="financial-education"
      />
      <SocialProof path={loaderData.landingPath} />
    </>
  );
}
