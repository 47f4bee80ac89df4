import { HERO_VARIANT_ATTRIBUTE } from '@guida/shared/experiments';
import type { EbookType } from '@guida/shared/lead-rules';
import { WidgetSlot } from '../components/widget-slot';
import type { LandingContent } from '../content/types';
import { LeadForm } from '../features/lead-form';
import { PublicLayout } from './public-layout';
import { RiskDisclaimer } from './risk-disclaimer';

export interface LandingPageProps {
  content: LandingContent;
  landingPath: string;
  /**
   * The hero variant of the page's A/B experiment, if it has one (decision 041), named on the
   * hero for tests and support: the API counts the visit's own (decision 051).
   */
  heroVariant?: string | null;
  variant: 'newer' | 'older';
  ebookType?: EbookType;
  /** Sections of a page variant between the benefits and the disclaimer. */
  children?: React.ReactNode;
  /** Above the hero (the older page's risk banner). */
  top?: React.ReactNode;
}

/** Hero with the form card, benefit cards, variant sections, risk disclaimer, footer. */
export function LandingPage({ content, landingPath, heroVariant, variant, ebookType, children, top }: LandingPageProps) {
  const { hero, form, benefits, disclaimer } = content;
  return (
    <PublicLayout guideFormOnPage>
      {top}
      <section
        data-track-section="hero"
        {...(heroVariant ? { [HERO_VARIANT_ATTRIBUTE]: heroVariant } : {})}
        className="bg-gradient-to-br from-slate-900 via-slate-900 to-emerald-900 text-white">
        <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 md:grid-cols-2 md:py-16">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-emerald-300">{hero.eyebrow}</p>
            <h1 className="mt-3 text-4xl font-extrabold leading-tight md:text-5xl">{hero.title}</h1>
            <p className="mt-4 text-lg text-slate-200">{hero.subtitle}</p>
            <ul className="mt-6 space-y-3">
              {hero.bullets.map((bullet) => (
                <li key={bullet} className="flex gap-3 text-slate-100">
                  <span aria-hidden="true" className="mt-0.5 font-bold text-emerald-300">
                    ✓
                  </span>
                  {bullet}
                </li>
              ))}
            </ul>
          </div>
          <div className="flex flex-col gap-4">
            <LeadForm
              variant={variant}
              {...(ebookType ? { ebookType } : {})}
              landingPath={landingPath}
              title={form.title}
              subtitle={form.subtitle}
              submitLabel={form.submitLabel}
            />
            <WidgetSlot />
          </div>
        </div>
      </section>
      <section data-track-section="benefits" aria-labelledby="vantaggi" className="mx-auto max-w-6xl px-4 py-14">
        <h2 id="vantaggi" className="text-center text-2xl font-bold md:text-3xl">
          {benefits.title}
        </h2>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {benefits.cards.map((card) => (
            <li key={card.title} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <h3 className="text-lg font-semibold text-slate-900">{card.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-700">{card.text}</p>
            </li>
          ))}
        </ul>
      </section>
      {children}
      <RiskDisclaimer title={disclaimer.title} paragraphs={disclaimer.paragraphs} />
    </PublicLayout>
  );
}
