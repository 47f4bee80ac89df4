import type { EbookType } from '@guida/shared/lead-rules';

/** Italian editorial content of the public pages. Only loaders import it (build time). */

export interface ArticleSection {
  heading: string;
  paragraphs: string[];
  bullets?: string[];
}

/** The SEO-facing part every page has. */
export interface PageMeta {
  /** <title>, at most 60 characters. */
  title: string;
  /** Meta description, 120–155 characters. */
  description: string;
}

/** A topic page (gold, ETF, signals, ...), Italian or Swiss variant. */
export interface TopicPage extends PageMeta {
  path: `/${string}`;
  heading: string;
  intro: string;
  sections: ArticleSection[];
  /** The call to the guide form at the end of the article. */
  cta: { title: string; text: string };
  ebookType: EbookType;
  /** Swiss variants speak of Switzerland (CHF, FINMA, +41). */
  country: 'IT' | 'CH';
  /** Paths of 2–3 related topic pages. */
  related: `/${string}`[];
}

/** Per-city data filled into the one city template. */
export interface CityPage extends PageMeta {
  path: `/${string}`;
  city: string;
  /** "a Milano", "a Roma", "in Italia": the preposition the city takes. */
  inCity: string;
  heading: string;
  intro: string;
  /** 2–3 paragraphs about finance and investing in this city, facts only. */
  localParagraphs: string[];
}

export interface LandingContent extends PageMeta {
  hero: { eyebrow: string; title: string; subtitle: string; bullets: string[] };
  form: { title: string; subtitle: string; submitLabel: string };
  benefits: { title: string; cards: { title: string; text: string }[] };
  disclaimer: { title: string; paragraphs: string[] };
}

export interface ThankYouContent extends PageMeta {
  heading: string;
  intro: string;
  steps: { title: string; text: string }[];
  notArrived: { title: string; items: string[] };
}

/** A hero variant of an A/B experiment: the hero's texts and the form's button label. */
export type HeroCopy = LandingContent['hero'] & { submitLabel: string };
