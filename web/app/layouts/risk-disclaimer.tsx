
/** The disclaimer section of every landing page: CFD risk, not financial advice. */
export function RiskDisclaimer({ title, paragraphs }: { title: string; paragraphs: string[] }) {
  return (
    <section data-track-section="disclaimer" aria-labelledby="avvertenze" className="mx-auto mt-16 max-w-4xl px-4">
      <div className="rounded-xl border border-amber-300 bg-amber-50 p-6">
        <h2 id="avvertenze" className="text-lg font-bold text-slate-900">
          {title}
        </h2>
        {paragraphs.map((paragraph) => (
          <p key={paragraph} className="mt-3 text-sm leading-relaxed text-slate-800">
            {paragraph}
          </p>
        ))}
      </div>
    </section>
  );
}
