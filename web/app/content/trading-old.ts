import { days, type SmsCopy } from './sms-copy';

/**
 * Editable content of the older trading page (/trading-old).
 *
 * Every figure and testimonial here is shown to visitors as a statement of fact. Italian
 * consumer law (Codice del Consumo, artt. 20-23) and the UCPD forbid invented figures,
 * fake reviews and false scarcity, and AGCM fines them: put here only what you can prove,
 * and keep the evidence. An empty list hides its section.
 */

export interface Claim {
  value: string;
  label: string;
}

export interface Testimonial {
  quote: string;
  /** As the author agreed to be named, e.g. "Laura, Bologna". */
  author: string;
  /** Where the operator keeps the author's written consent to publish. */
  consentReference: string;
}

export const riskBanner =
  'Avvertenza di rischio: i CFD sono strumenti complessi e comportano un alto rischio di perdere denaro rapidamente a causa della leva finanziaria. Tra il 74% e l’89% dei conti degli investitori al dettaglio perde denaro negoziando CFD. Valuta se comprendi il funzionamento dei CFD e se puoi permetterti di correre questo rischio.';

/** The risk warning in one short line, shown once the visitor scrolled past the full one. */
export const riskLine = 'Avvertenza: il 74-89% dei conti CFD al dettaglio perde denaro.';

/** Facts about the free guide itself; the link's validity is the configured one (GUIDE_LINK_TTL_DAYS). */
export const guideClaims = (sms: SmsCopy): Claim[] => [
  { value: '0 €', label: 'La guida è gratuita, senza carta di credito' },
  { value: 'PDF', label: 'Da leggere su telefono, tablet o computer' },
  { value: 'SMS', label: 'Il link personale arriva in pochi secondi' },
  { value: days(sms.linkDays), label: 'Per scaricarla dal tuo link personale' },
];

/** Real readers' words, published with their consent. None yet. */
export const testimonials: Testimonial[] = [];

export const preview = {
  title: 'Cosa trovi nella guida',
  intro: 'Un percorso essenziale, in italiano chiaro, per capire come funzionano i mercati prima di qualsiasi decisione.',
};

export const scrollButtonLabel = 'Voglio la guida gratuita';
