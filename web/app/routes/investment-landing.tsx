import { LandingPage } from '../layouts/landing-page';
import { SocialProof } from '../features/social-proof';
import { investmentLanding } from '../content/landings';
import { landingForVariant } from '../hero-experiment.server';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import type { Route } from './+types/investment-landing';

/** Investment-education landing page: /market-report-native, /educazione-investimenti. */
export function loader({ url, params }: Route.LoaderArgs) {
  const landing = landingForVariant(investmentLanding, pathOf(url), params);
  return { ...landing, seo: pageSeo(landing.landingPath, investmentLanding) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export default function InvestmentLanding({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <LandingPage
        content={loaderData.content}
        landingPath={loaderData.landingPath}
        heroVariant={loaderData.heroVariant}
        variant="newer"
        ebookType="investment-education"
      />
      <SocialProof path={loaderData.landingPath} />
    </>
  );
}
