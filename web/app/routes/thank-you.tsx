import { useSyncExternalStore } from 'react';
import { Link, useLocation } from 'react-router';
import { THANK_YOU_PREFIX_PARAM } from '@guida/shared/lead-rules';
import { PublicLayout } from '../layouts/public-layout';
import { thankYouItaly, thankYouNeutral, thankYouSwitzerland, type SmsCopy } from '../content/thank-you';
import type { ThankYouContent } from '../content/types';
import { useSmsCopy } from '../features/site-settings';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import { buildSmsCopy } from '../site-config.server';
import type { Route } from './+types/thank-you';

type Copy = (sms: SmsCopy) => ThankYouContent;

/** Each country's page, and its copy for a visitor whose number is of the other country. */
const CONTENT: Record<string, { content: Copy; otherNumber: { prefix: string; content: Copy } }> = {
  '/grazie-italia': { content: thankYouItaly, otherNumber: { prefix: '41', content: thankYouSwitzerland } },
  '/grazie-svizzera': { content: thankYouSwitzerland, otherNumber: { prefix: '39', content: thankYouItaly } },
};

/** After a request: what happens next, and what to do if the SMS does not arrive. */
export function loader({ url }: Route.LoaderArgs) {
  const path = pathOf(url);
  const { content } = CONTENT[path] ?? { content: thankYouNeutral };
  return { path, sms: buildSmsCopy, seo: pageSeo(path, content(buildSmsCopy), { noindex: true }) };
}

const noSubscription = () => () => {};

/**
 * The country code the form put in the address (`?prefisso=`, see thankYouPathFor). Read
 * after hydration: the prerendered page is the same for every visitor.
 */
function useNumberPrefix() {
  const { search } = useLocation();
  return useSyncExternalStore(
    noSubscription,
    () => new URLSearchParams(search).get(THANK_YOU_PREFIX_PARAM),
    () => null,
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export function ThankYouView({ content }: { content: ThankYouContent }) {
  return (
    <PublicLayout>
      <div className="mx-auto max-w-3xl px-4 pt-12">
        <h1 className="text-3xl font-extrabold text-slate-900 md:text-4xl">{content.heading}</h1>
        <p className="mt-4 text-lg text-slate-700">{content.intro}</p>
        <ol className="mt-8 grid gap-4 md:grid-cols-3">
          {content.steps.map((step, index) => (
            <li key={step.title} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
              <p className="text-sm font-bold text-emerald-800">Passo {index + 1}</p>
              <h2 className="mt-1 font-semibold text-slate-900">{step.title}</h2>
              <p className="mt-2 text-sm text-slate-700">{step.text}</p>
            </li>
          ))}
        </ol>
        <section aria-labelledby="non-arriva" className="mt-10 rounded-xl border border-slate-200 bg-white p-6">
          <h2 id="non-arriva" className="text-xl font-bold">
            {content.notArrived.title}
          </h2>
          <ul className="mt-4 list-disc space-y-2 pl-6 text-slate-800">
            {content.notArrived.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
        <p className="mt-8">
          <Link to="/" className="font-medium text-emerald-800 underline">
            Torna alla pagina iniziale
          </Link>
        </p>
      </div>
    </PublicLayout>
  );
}

export default function ThankYou({ loaderData }: Route.ComponentProps) {
  const { content, otherNumber = null } = CONTENT[loaderData.path] ?? { content: thankYouNeutral };
  const prefix = useNumberPrefix();
  const sms = useSmsCopy(loaderData.sms);
  return <ThankYouView content={(otherNumber && prefix === otherNumber.prefix ? otherNumber.content : content)(sms)} />;
}
