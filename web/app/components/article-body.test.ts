import { describe, expect, it } from 'vitest';
import { ANALYTICS_TEXT_LIMITS } from '@guida/shared/analytics-rules';
import { topicPages } from '../content/topics';
import { sectionName } from './article-body';

describe('the names of an article\'s chapters in analytics', () => {
  it('are the heading as a slug of whole words, within the analytics limit', () => {
    expect(sectionName('La pensione: previdenza pubblica e complementare')).toBe('la-pensione-previdenza-pubblica-e-complementare');
    expect(sectionName("Perché l'oro è diverso dall'ETF")).toBe('perche-l-oro-e-diverso-dall-etf');
    const long = sectionName('Partire da una fotografia della situazione attuale delle proprie finanze');
    expect(long).toBe('partire-da-una-fotografia-della-situazione-attuale');
    expect(long.length).toBeLessThanOrEqual(ANALYTICS_TEXT_LIMITS.section);
  });

  it('are distinct within every topic page and accepted by analytics', () => {
    for (const topic of topicPages) {
      const names = topic.sections.map((section) => sectionName(section.heading));
      expect(new Set(names).size, topic.path).toBe(names.length);
      for (const name of names) expect(name, topic.path).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      for (const name of names) expect(name.length, topic.path).toBeLessThanOrEqual(ANALYTICS_TEXT_LIMITS.section);
    }
  });
});
