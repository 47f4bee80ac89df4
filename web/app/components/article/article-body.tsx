import type { ArticleSection } from '../../content/types';

/** Headings, paragraphs and lists of an article, with stable ids for in-page links. */
export function ArticleBody({ sections }: { sections: ArticleSection[] }) {
  return (
    <div className="prose-article">
      {sections.map((section) => (
        <section key={section.heading} className="mt-10">
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
