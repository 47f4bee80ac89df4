import type { EbookType } from '@guida/shared/lead-rules';
import { WidgetSlot } from '../components/widget-slot';
import { LeadForm } from '../features/lead-form';

/** The call to the guide form at the end of an article. */
export function GuideRequestSection(props: { title: string; text: string; ebookType: EbookType; landingPath: string }) {
  return (
    <section data-track-section="guide-request" aria-label="Richiedi la guida" className="mt-14 rounded-2xl bg-gradient-to-br from-slate-900 to-emerald-900 p-6 text-white md:p-10">
      <div className="grid gap-8 md:grid-cols-2 md:items-center">
        <div>
          <h2 className="text-2xl font-bold">{props.title}</h2>
          <p className="mt-3 text-slate-200">{props.text}</p>
        </div>
        <div className="flex flex-col gap-4">
          <LeadForm
            variant="newer"
            ebookType={props.ebookType}
            landingPath={props.landingPath}
            title="Richiedi la guida gratuita"
            subtitle="Il link personale arriva via SMS in pochi secondi."
            submitLabel="Ricevi la guida gratuita"
          />
          {/* The article's text runs through the left half of wide screens: the widgets stay here. */}
          <WidgetSlot floating={false} />
        </div>
      </div>
    </section>
  );
}
