import { ANALYTICS_TEXT_LIMITS } from '@guida/shared/analytics-rules';
import type { ArticleSection } from '../content/types';

/**
 * The name a chapter's reading time is recorded under: its heading as a slug, whole words
 * only, as long as analytics accept ("La pensione: previdenza pubblica" → "la-pensione-previdenza-pubblica").
 */
export function sectionName(heading: string): string {
  const words = heading
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let name = '';
  for (const word of words) {
    const longer = name ? `${name}-${word}` : word;
    if (longer.length > ANALYTICS_TEXT_LIMITS.section) break;
    name = longer;
  }
  return name || words.join('-').slice(0, ANALYTICS_TEXT_LIMITS.section);
}

/** Headings, paragraphs and lists of an article; each chapter's reading time is tracked on its own. */
export function ArticleBody({ sections }: { sections: ArticleSection[] }) {
  return (
    <div className="prose-article">
      {sections.map((section) => (
        <section key={section.heading} data-track-section={sectionName(section.heading)} className="mt-10">
          <h2 className="mb-4 text-2xl font-bold text-slate-900">{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.bullets?.length ? (
            <ul className="mb-4 list-disc space-y-2 pl-6 text-slate-800">
              {section.bullets.map((bullet) => (
                <li key={bullet}>{bullet}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </div>
  );
}
