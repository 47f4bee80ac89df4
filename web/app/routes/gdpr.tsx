import { PublicLayout } from '../layouts/public-layout';
import { gdprPage } from '../content/gdpr';
import { GdprRequestForm } from '../features/gdpr-request';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import { controller } from '../site-config.server';
import type { Route } from './+types/gdpr';

/** Data-protection rights and the form to exercise them. */
export function loader({ url }: Route.LoaderArgs) {
  return { page: gdprPage, contactEmail: controller.email, seo: pageSeo(pathOf(url), gdprPage.meta) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export default function Gdpr({ loaderData }: Route.ComponentProps) {
  const { page, contactEmail } = loaderData;
  return (
    <PublicLayout>
      <article className="mx-auto max-w-3xl px-4 pt-10">
        <h1 className="text-3xl font-extrabold text-slate-900 md:text-4xl">{page.heading}</h1>
        <p className="mt-4 text-lg text-slate-700">{page.intro}</p>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2">
          {page.rights.map((right) => (
            <li key={right.title} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
              <h2 className="font-semibold text-slate-900">{right.title}</h2>
              <p className="mt-2 text-sm text-slate-700">{right.text}</p>
            </li>
          ))}
        </ul>
        <section aria-labelledby="come-funziona" className="mt-10">
          <h2 id="come-funziona" className="text-2xl font-bold">
            Come funziona
          </h2>
          <ol className="mt-4 list-decimal space-y-2 pl-6 text-slate-800">
            {page.howItWorks.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="richiesta" className="mt-10 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h2 id="richiesta" className="text-2xl font-bold">
            {page.formTitle}
          </h2>
          <p className="mt-2 text-slate-700">{page.formIntro}</p>
          <GdprRequestForm />
          <p className="mt-6 text-sm text-slate-700">
            {page.alternativeContact}{' '}
            <a href={`mailto:${contactEmail}`} className="font-medium text-emerald-800 underline">
              {contactEmail}
            </a>
            .
          </p>
        </section>
      </article>
    </PublicLayout>
  );
}
