/**
 * What the pages say about a guide, checked against the guide as built (Codice del Consumo
 * art. 21: a claim about the product must be true). For each page that offers a guide —
 * the landing pages, every hero variant of an A/B experiment, the older page, the topic
 * pages' calls to the form (an article's own text speaks of the world, not of the guide) — its
 * copy may state:
 * - a page count only if it is the built PDF's;
 * - a duration only among the product's own promises (the SMS within seconds, at most
 *   2 minutes; one request per 24 hours; the 6-month cookie choice);
 * - a deliverable (a template, a worksheet, a checklist, a video...) only if the guide's text
 *   has it;
 * - nothing personal ("nel tuo caso", "su misura"): the guides are general, and say so.
 * Figures that come from the configuration (the link's days, the sender) are not in this
 * copy at all: the pages read them from the configuration.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EBOOK_TYPES, type EbookType } from '@guida/shared/lead-rules';
import { HERO_VARIANT_COPY } from '../web/app/content/hero-experiments';
import { financeLanding, investmentLanding, olderLanding } from '../web/app/content/landings';
import { topicPages } from '../web/app/content/topics';
import { days } from '../web/app/content/sms-copy';
import { guideClaims, preview } from '../web/app/content/trading-old';
import { buildGuides, pdfPageCount } from './build-guides';

const NUMBERS: Record<string, number> = {
  un: 1, una: 1, uno: 1, due: 2, tre: 3, quattro: 4, cinque: 5, sei: 6, sette: 7, otto: 8, nove: 9, dieci: 10,
  undici: 11, dodici: 12, quindici: 15, venti: 20, trenta: 30, quaranta: 40, cinquanta: 50, cento: 100,
};
const NUMBER = `(\\d+|${Object.keys(NUMBERS).join('|')})`;
const PAGE_COUNT = new RegExp(`\\b${NUMBER}\\s*\\+?\\s*pagin[ae]\\b`, 'gi');
const DURATION = new RegExp(
  `\\b(${NUMBER.slice(1, -1)}|pochi|poche|qualche)\\s+(second[oi]|minut[oi]|or[ae]|giorn[oi]|settiman[ae]|mes[ei]|ann[oi])\\b|\\b(weekend|fine settimana)\\b`,
  'gi',
);
/** A configured link validity: the pages read it from the configuration (GUIDE_LINK_TTL_DAYS). */
const LINK_DAYS = 7;
/** The product's own promises, the only durations the copy may state, and the configured one. */
const PROMISED_DURATIONS = ['pochi secondi', '2 minuti', 'due minuti', '24 ore', '6 mesi', 'sei mesi', days(LINK_DAYS)];
/** Things a guide could be said to contain besides its text. */
const DELIVERABLES = [
  'modello', 'modelli', 'foglio di calcolo', 'fogli di calcolo', 'template', 'esercizio', 'esercizi', 'checklist',
  'calcolatore', 'simulatore', 'tabella', 'tabelle', 'grafico', 'grafici', 'video', 'videocorso', 'webinar', 'quiz',
];
const PERSONAL = ['nel tuo caso', 'su misura', 'personalizzat'];

interface GuideFacts {
  pages: number;
  text: string;
}

/** Every string in a piece of content, however deep. */
function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (Array.isArray(content)) return content.flatMap(textsOf);
  if (content && typeof content === 'object') return Object.values(content).flatMap(textsOf);
  return [];
}

const hasWord = (text: string, word: string) => new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, 'iu').test(text);

/** What in `copy` the guide does not back, one line per claim. */
function unbackedClaims(copy: string[], guide: GuideFacts): string[] {
  const problems: string[] = [];
  for (const text of copy) {
    for (const [claim, number] of text.matchAll(PAGE_COUNT)) {
      const pages = Number(number) || NUMBERS[number!.toLowerCase()]!;
      if (pages !== guide.pages) problems.push(`"${claim}" (the guide has ${guide.pages} pages): ${text}`);
    }
    for (const [claim] of text.matchAll(DURATION)) {
      if (!PROMISED_DURATIONS.includes(claim.toLowerCase())) problems.push(`"${claim}" is no promise of the product: ${text}`);
    }
    for (const item of DELIVERABLES) {
      if (hasWord(text, item) && !hasWord(guide.text, item)) problems.push(`"${item}" is not in the guide: ${text}`);
    }
    for (const phrase of PERSONAL) {
      if (text.toLowerCase().includes(phrase)) problems.push(`"${phrase}": the guide is general: ${text}`);
    }
  }
  return problems;
}

/** The copy of every page that offers a guide, with the guide it offers. */
const PAGES: [string, EbookType, unknown][] = [
  ['the finance landing page', 'financial-education', financeLanding],
  ...Object.entries(HERO_VARIANT_COPY).flatMap(([experiment, variants]) =>
    Object.entries(variants).map(
      ([variant, copy]): [string, EbookType, unknown] => [`${experiment}, variant ${variant}`, 'financial-education', copy],
    ),
  ),
  ['the investment landing page', 'investment-education', investmentLanding],
  // The older page's form sends no guide type: the general guide.
  ['/trading-old', 'general', [olderLanding, guideClaims({ sender: null, linkDays: LINK_DAYS, heldEmailMinutes: 10 }), preview]],
  ...topicPages.map((page): [string, EbookType, unknown] => [page.path, page.ebookType, page.cta]),
];

describe('what the pages say about the guides', () => {
  let outDir: string;
  const guides = new Map<EbookType, GuideFacts>();

  beforeAll(async () => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-claims-'));
    await buildGuides(outDir);
    for (const type of EBOOK_TYPES) {
      guides.set(type, {
        pages: pdfPageCount(fs.readFileSync(path.join(outDir, `${type}.pdf`))),
        text: fs.readFileSync(new URL(`./content/${type}.md`, import.meta.url), 'utf8'),
      });
    }
  });

  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it('finds the claims it is meant to find', () => {
    const guide = { pages: 5, text: 'Un foglio di calcolo o un quaderno. Il fondo di emergenza.' };
    expect(
      unbackedClaims(
        [
          'Entrate, uscite e risparmio: le basi in dieci pagine',
          'Un modello di bilancio da compilare in poche ore',
          'Un bilancio familiare chiaro in un weekend',
          'Quanto mettere da parte per gli imprevisti, nel tuo caso',
        ],
        guide,
      ),
    ).toHaveLength(5);
    expect(
      unbackedClaims(['Il link arriva in pochi secondi, al massimo 2 minuti', 'Cinque pagine con un foglio di calcolo'], guide),
    ).toEqual([]);
  });

  it.each(PAGES)('%s claims nothing the guide does not back', (_page, type, content) => {
    expect(unbackedClaims(textsOf(content), guides.get(type)!)).toEqual([]);
  });
});
