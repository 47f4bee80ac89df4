import { welcomePage } from '../content/thank-you';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import type { Route } from './+types/welcome';
import { ThankYouView } from './thank-you';

export function loader({ request }: Route.LoaderArgs) {
  return { content: welcomePage, seo: pageSeo(pathOf(request), welcomePage, { noindex: true }) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export default function Welcome({ loaderData }: Route.ComponentProps) {
  return <ThankYouView content={loaderData.content} />;
}
