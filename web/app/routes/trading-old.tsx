import { Suspense, useEffect, useRef, useState } from 'react';
import guideSource from '../../../guides/content/general.md?raw';
import { LandingPage } from '../layouts/landing-page';
import { InWidgetSlot } from '../components/widget-slot';
import { CloseButton } from '../components/ui/close-button';
import { olderLanding } from '../content/landings';
import type { SmsCopy } from '../content/sms-copy';
import { guideClaims, preview, riskBanner, riskLine, scrollButtonLabel, testimonials } from '../content/trading-old';
import { OfferCountdown } from '../features/offer-countdown';
import { useSmsCopy } from '../features/site-settings';
import { SocialProof, useLiveStats } from '../features/social-proof';
import { trackCtaClick } from '../features/tracking';
import { AfterHydrationIdle } from '../lib/after-hydration';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import { buildSmsCopy } from '../site-config.server';
import type { Route } from './+types/trading-old';

/** The chapters of the guide this page offers, read from its source at build time. */
function guideChapters(markdown: string) {
  return [...markdown.matchAll(/^## (.+)$/gm)].map((match) => match[1]!.trim());
}

export function loader({ url }: Route.LoaderArgs) {
  const path = pathOf(url);
  return {
    content: olderLanding,
    landingPath: path,
    seo: pageSeo(path, olderLanding),
    chapters: guideChapters(guideSource),
    sms: buildSmsCopy,
    testimonials,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

/**
 * The red risk warning: in full at the top of the page; once the visitor has scrolled
 * past it, a thin line fixed at the top of the screen (the full text took 29 % of a
 * phone's screen at every scroll position). A line, not a shrinking sticky banner: the
 * page does not move under the visitor when it appears (app.css keeps anchors below it).
 */
function RiskBanner() {
  const [open, setOpen] = useState(true);
  const [scrolledPast, setScrolledPast] = useState(false);
  const banner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = banner.current;
    if (!element) return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry) setScrolledPast(!entry.isIntersecting && entry.boundingClientRect.top < 0);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  if (!open) return null;
  const close = () => setOpen(false);
  return (
    <>
      <div ref={banner} role="note" className="bg-red-700 text-white">
        <div className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-2 text-sm">
          <p className="flex-1">{riskBanner}</p>
          <CloseButton label="Chiudi l’avviso di rischio" onClick={close} onRed />
        </div>
      </div>
      <div data-risk-line role="note" hidden={!scrolledPast} className="fixed inset-x-0 top-0 z-40 bg-red-700 text-white shadow-md">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-1 text-xs font-medium">
          <p className="line-clamp-2 flex-1">{riskLine}</p>
          <CloseButton label="Chiudi l’avviso di rischio" onClick={close} onRed />
        </div>
      </div>
    </>
  );
}

/** Scrolls to the form (below the risk line: app.css's scroll padding) with Nome focused. */
function scrollToForm() {
  trackCtaClick('scroll-to-form');
  const form = document.getElementById('richiedi-guida');
  form?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  form?.querySelector<HTMLInputElement>('input[name="nome"]')?.focus({ preventScroll: true });
}

/** The countdown to the real deadline, with the free places left when a cap is configured. */
function OfferBox({ landingPath }: { landingPath: string }) {
  const { data: stats } = useLiveStats(landingPath);
  const places =
    stats?.placesRemaining != null && stats.placesTotal != null
      ? { remaining: stats.placesRemaining, total: stats.placesTotal }
      : null;
  return <OfferCountdown places={places} />;
}

/**
 * The guide's figures, with the SMS copy of the running settings once read: its own
 * component, so that reading them renders this list again, not the page.
 */
function GuideClaims({ built }: { built: SmsCopy }) {
  const claims = guideClaims(useSmsCopy(built));
  if (claims.length === 0) return null;
  return (
    <section aria-label="La guida in breve" className="mx-auto max-w-6xl px-4">
      <ul className="grid gap-4 rounded-2xl bg-emerald-900 p-6 text-white sm:grid-cols-2 lg:grid-cols-4">
        {claims.map((claim) => (
          <li key={claim.label}>
            <p className="text-2xl font-extrabold">{claim.value}</p>
            <p className="text-sm text-emerald-50">{claim.label}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The older trading-guide page: risk banner, countdown, claims, preview, testimonials. */
export default function TradingOld({ loaderData }: Route.ComponentProps) {
  const { content, landingPath, chapters } = loaderData;
  return (
    <>
      <LandingPage content={content} landingPath={landingPath} variant="older" top={<RiskBanner />}>
        <GuideClaims built={loaderData.sms} />
        <section data-track-section="preview" aria-labelledby="anteprima" className="mx-auto mt-14 max-w-4xl px-4">
          <div>
            <h2 id="anteprima" className="text-2xl font-bold md:text-3xl">
              {preview.title}
            </h2>
            <p className="mt-3 text-slate-700">{preview.intro}</p>
            <ol className="mt-6 grid gap-3 sm:grid-cols-2">
              {chapters.map((chapter, index) => (
                <li key={chapter} className="flex gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
                  <span className="font-bold text-emerald-800">{index + 1}.</span>
                  <span className="text-slate-800">{chapter}</span>
                </li>
              ))}
            </ol>
          </div>
          <div className="mt-8 text-center">
            <button type="button" onClick={scrollToForm} className="btn-primary px-6 py-3 text-base">
              {scrollButtonLabel}
            </button>
          </div>
        </section>
        {loaderData.testimonials.length > 0 ? (
          <section aria-labelledby="opinioni" className="mx-auto mt-14 max-w-6xl px-4">
            <h2 id="opinioni" className="text-2xl font-bold md:text-3xl">
              Cosa dicono i lettori
            </h2>
            <ul className="mt-6 grid gap-6 md:grid-cols-3">
              {loaderData.testimonials.map((testimonial) => (
                <li key={testimonial.author} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                  <blockquote className="text-slate-800">“{testimonial.quote}”</blockquote>
                  <p className="mt-3 text-sm font-semibold text-slate-700">{testimonial.author}</p>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </LandingPage>
      <AfterHydrationIdle>
        <InWidgetSlot>
          <Suspense fallback={null}>
            <OfferBox landingPath={landingPath} />
          </Suspense>
        </InWidgetSlot>
      </AfterHydrationIdle>
      <SocialProof path={landingPath} />
    </>
  );
}
