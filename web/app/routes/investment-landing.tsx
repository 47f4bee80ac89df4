import { LandingPage } from '../components/landing/landing-page';
import { SocialProof } from '../features/social-proof/social-proof';
import { investmentLanding } from '../content/landings';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import type { Route } from './+types/investment-landing';

/** Investment-education landing page: /market-report-native, /educazione-investimenti. */
export function loader({ request }: Route.LoaderArgs) {
  const path = pathOf(request);
  return { content: investmentLanding, landingPath: path, seo: pageSeo(path, investmentLanding) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export default function InvestmentLanding({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <LandingPage
        content={loaderData.content}
        landingPath={loaderData.landingPath}
        variant="newer"
        ebookType="investment-education"
      />
      <SocialProof path={loaderData.landingPath} />
    </>
  );
}
