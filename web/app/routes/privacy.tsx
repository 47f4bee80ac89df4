import { ArticleBody } from '../components/article-body';
import { PublicLayout } from '../layouts/public-layout';
import { privacyPolicy } from '../content/privacy';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import { controller, siteConfig } from '../site-config.server';
import type { Route } from './+types/privacy';

/** The GDPR art. 13 notice, with the controller and retention periods from the configuration. */
export function loader({ url }: Route.LoaderArgs) {
  const policy = privacyPolicy(controller, {
    leadMonths: siteConfig.RETENTION_MONTHS,
    analyticsMonths: siteConfig.ANALYTICS_RETENTION_MONTHS,
    linkDays: siteConfig.GUIDE_LINK_TTL_DAYS,
    heldEmailMinutes: siteConfig.SMS_HELD_EMAIL_AFTER_MINUTES,
  });
  return { policy, seo: pageSeo(pathOf(url), policy.meta) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { policy } = loaderData;
  return (
    <PublicLayout>
      <article className="mx-auto max-w-3xl px-4 pt-10">
        <h1 className="text-3xl font-extrabold text-slate-900 md:text-4xl">{policy.heading}</h1>
        <p className="mt-2 text-sm text-slate-600">Ultimo aggiornamento: {policy.updated}</p>
        <ArticleBody sections={policy.sections} />
      </article>
    </PublicLayout>
  );
}
