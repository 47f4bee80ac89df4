import { describe, expect, it } from 'vitest';
import { marketingConsentText } from '@guida/shared/messages';
import { HERO_EXPERIMENTS } from '@guida/shared/experiments';
import { CITY_PATHS, FINANCE_LANDING_PATHS, INVESTMENT_LANDING_PATHS, TOPIC_PATHS } from '../page-paths';
import { cityPages } from './cities';
import { gdprPage } from './gdpr';
import { HERO_VARIANT_COPY } from './hero-experiments';
import { financeLanding, investmentLanding, olderLanding } from './landings';
import { createHash } from 'node:crypto';
import { PRIVACY_NOTICE_VERSIONS, privacyPolicy } from './privacy';
import { thankYouItaly, thankYouNeutral, thankYouSwitzerland, welcomePage } from './thank-you';
import { topicPages } from './topics';
import type { PageMeta } from './types';

const SMS = { sender: 'GuidaFin', linkDays: 30, heldEmailMinutes: 10 };
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const privacy = privacyPolicy(
  { name: 'Esempio S.r.l.', address: 'Via Roma 1, 20100 Milano', email: 'privacy@example.it' },
  { leadMonths: 24, analyticsMonths: 13, linkDays: 30, heldEmailMinutes: 10 },
);
const pages: [string, PageMeta][] = [
  ...topicPages.map((page) => [page.path, page] as [string, PageMeta]),
  ...cityPages.map((page) => [page.path, page] as [string, PageMeta]),
  ['finance landing', financeLanding],
  ['investment landing', investmentLanding],
  ['older landing', olderLanding],
  ['thank you IT', thankYouItaly(SMS)],
  ['thank you CH', thankYouSwitzerland(SMS)],
  ['thank you', thankYouNeutral(SMS)],
  ['welcome', welcomePage(SMS)],
  ['privacy', privacy.meta],
  ['gdpr', gdprPage.meta],
];

describe('page content', () => {
  it('covers exactly the topic and city paths of the spec', () => {
    expect(topicPages.map((page) => page.path).sort()).toEqual([...TOPIC_PATHS].sort());
    expect(cityPages.map((page) => page.path).sort()).toEqual([...CITY_PATHS].sort());
  });

  it.each(pages)('%s has a title of at most 60 and a description of 120–155 characters', (_name, meta) => {
    expect(meta.title.length).toBeLessThanOrEqual(60);
    expect(meta.description.length).toBeGreaterThanOrEqual(120);
    expect(meta.description.length).toBeLessThanOrEqual(155);
  });

  it('gives every topic a real article, its Swiss variants speaking of Switzerland', () => {
    for (const topic of topicPages) {
      const body = topic.sections.flatMap((section) => [...section.paragraphs, ...(section.bullets ?? [])]).join(' ');
      expect(words(body), topic.path).toBeGreaterThan(500);
      expect(topic.sections.length, topic.path).toBeGreaterThanOrEqual(4);
      expect(topic.country, topic.path).toBe(topic.path.includes('svizzera') ? 'CH' : 'IT');
      if (topic.country === 'CH') expect(JSON.stringify(topic), topic.path).toMatch(/CHF|FINMA/);
      for (const related of topic.related) expect(TOPIC_PATHS, `${topic.path} → ${related}`).toContain(related);
    }
  });

  it('never promises gains', () => {
    const everything = JSON.stringify([topicPages, cityPages, financeLanding, investmentLanding, olderLanding, welcomePage(SMS)]);
    expect(everything).not.toMatch(/guadagno (garantito|sicuro)|guadagni garantiti|rendimento garantito|soldi facili/i);
  });

  it('names the controller and the retention periods in the privacy notice', () => {
    const text = JSON.stringify(privacy.sections);
    expect(text).toContain('Esempio S.r.l.');
    expect(text).toContain('privacy@example.it');
    expect(text).toMatch(/24 mesi/);
    expect(text).toMatch(/13 mesi/);
    expect(text).toMatch(/Garante/);
    expect(text).toMatch(/Twilio/);
  });

  it('describes the form’s optional marketing consent with the purpose and channels its checkbox names', () => {
    const purpose = 'comunicazioni informative e promozionali via email e SMS';
    expect(marketingConsentText).toContain(purpose);
    expect(marketingConsentText).toContain('(facoltativo)');
    const text = JSON.stringify(privacy.sections).toLowerCase();
    expect(text).toContain(`${purpose.toLowerCase()}: solo se dai il consenso facoltativo e separato previsto nel modulo`);
    expect(JSON.stringify(welcomePage(SMS).notArrived)).toContain('le comunicazioni promozionali arrivano solo se dai il consenso facoltativo');
  });

  it('names the configured SMS sender, link lifetime and email fallback, and no sender when the provider picks it', () => {
    const text = (sms: { sender: string | null; linkDays: number; heldEmailMinutes: number }) =>
      [thankYouItaly, thankYouSwitzerland, thankYouNeutral, welcomePage]
        .map((page) => page(sms))
        .flatMap((c) => [c.title, c.description, c.heading, c.intro, ...c.steps.flatMap((s) => [s.title, s.text]), ...c.notArrived.items])
        .join('\n');
    const configured = text({ sender: 'MiaGuida', linkDays: 7, heldEmailMinutes: 15 });
    expect(configured).toContain('dal mittente "MiaGuida"');
    expect(configured).toContain('valido per 7 giorni');
    expect(configured).toContain('o tarda più di 15 minuti, ti inviamo automaticamente il link');
    expect(configured).not.toMatch(/GuidaFin|30 giorni|10 minuti/);
    const unnamed = text({ sender: null, linkDays: 1, heldEmailMinutes: 1 });
    expect(unnamed).not.toMatch(/mittente "|di "|nome "/);
    expect(unnamed).toContain('1 giorno');
  });
});

describe('hero experiments', () => {
  it.each(HERO_EXPERIMENTS.map((experiment) => [experiment.id, experiment] as const))(
    '%s has the copy of exactly its variants, on a landing page, its control the page as it is',
    (_id, experiment) => {
      const copy = HERO_VARIANT_COPY[experiment.id]!;
      expect(Object.keys(copy).sort()).toEqual(experiment.variants.map((variant) => variant.id).sort());
      expect(experiment.variants.length).toBeGreaterThanOrEqual(2);
      expect(experiment.variants.length).toBeLessThanOrEqual(3);
      expect([...FINANCE_LANDING_PATHS, ...INVESTMENT_LANDING_PATHS]).toContain(experiment.path);
      const landing = (FINANCE_LANDING_PATHS as readonly string[]).includes(experiment.path) ? financeLanding : investmentLanding;
      expect(copy[experiment.variants[0]!.id]).toEqual({ ...landing.hero, submitLabel: landing.form.submitLabel });
      for (const variant of Object.values(copy)) {
        expect(variant.bullets.length).toBeGreaterThanOrEqual(3);
        // The button still says what it gives.
        expect(variant.submitLabel).toMatch(/guida/i);
      }
    },
  );
});

describe('the privacy notice', () => {
  it('dates its text: a changed wording needs a new entry in PRIVACY_NOTICE_VERSIONS, which the page shows', () => {
    // Placeholders for what the configuration fills in: only the wording counts.
    const { updated, ...text } = privacyPolicy(
      { name: '{titolare}', address: '{indirizzo}', email: '{email}', vatNumber: '{partita IVA}' },
      { leadMonths: 1001, analyticsMonths: 1002, linkDays: 1003, heldEmailMinutes: 1004 },
    );
    const fingerprint = createHash('sha256').update(JSON.stringify(text)).digest('hex').slice(0, 16);
    const newest = PRIVACY_NOTICE_VERSIONS.at(-1)!;
    expect(newest.fingerprint, `the notice's text changed: add { effective: '<today>', fingerprint: '${fingerprint}' }`).toBe(fingerprint);
    const days = PRIVACY_NOTICE_VERSIONS.map((version) => version.effective);
    expect([...days].sort()).toEqual(days);
    expect(newest.effective <= new Date().toISOString().slice(0, 10)).toBe(true);
    expect(new Set(PRIVACY_NOTICE_VERSIONS.map((version) => version.fingerprint)).size).toBe(PRIVACY_NOTICE_VERSIONS.length);
    expect(updated).toBe(new Intl.DateTimeFormat('it-IT', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(`${newest.effective}T12:00:00Z`)));
  });

  it('states the configured link validity, retention periods and controller', () => {
    const text = JSON.stringify(
      privacyPolicy({ name: 'Esempio S.r.l.', address: 'Via Roma 1', email: 'p@example.it' }, { leadMonths: 18, analyticsMonths: 7, linkDays: 12, heldEmailMinutes: 25 }),
    );
    for (const expected of ['12 giorni', '18 mesi', '7 mesi', '25 minuti', 'Esempio S.r.l.', 'Via Roma 1']) expect(text).toContain(expected);
    expect(text).not.toContain('30 giorni');
  });
});

