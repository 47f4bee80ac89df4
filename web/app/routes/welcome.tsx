import { welcomePage } from '../content/thank-you';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import type { Route } from './+types/welcome';
import { buildSmsCopy } from '../site-config.server';
import { useSmsCopy } from '../features/site-settings';
import { ThankYouView } from './thank-you';

export function loader({ url }: Route.LoaderArgs) {
  return { sms: buildSmsCopy, seo: pageSeo(pathOf(url), welcomePage(buildSmsCopy), { noindex: true }) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export default function Welcome({ loaderData }: Route.ComponentProps) {
  return <ThankYouView content={welcomePage(useSmsCopy(loaderData.sms))} />;
}
