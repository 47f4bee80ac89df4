import { financeLanding } from './landings';
import type { HeroCopy } from './types';

/**
 * The hero of each variant of the A/B experiments (decision 041), by experiment id and
 * variant id as defined in @guida/shared/experiments (content.test.ts checks they match). The control is the page's own hero.
 * Educational tone as everywhere: no promises of gains, no urgency. Changing a running
 * variant's copy invalidates its numbers: start a new experiment instead.
 */
export const HERO_VARIANT_COPY: Record<string, Record<string, HeroCopy>> = {
  'hero-trading-automatico-2026-11-27': {
    a: { ...financeLanding.hero, submitLabel: financeLanding.form.submitLabel },
    b: {
      eyebrow: 'Guida gratuita di finanza personale',
      title: 'Un bilancio familiare chiaro, passo dopo passo',
      subtitle:
        'Una guida in PDF con un metodo semplice per vedere entrate e uscite, costruire un fondo di emergenza e decidere con calma.',
      bullets: [
        'Come raggruppare le spese e capire dove vanno i soldi',
        'Quanto mettere da parte per gli imprevisti: le indicazioni più diffuse',
        'Quali debiti ridurre per primi e perché',
        'Inflazione e previdenza spiegate con esempi concreti',
      ],
      submitLabel: 'Scarica la guida gratuita',
    },
    c: {
      eyebrow: 'Guida gratuita, senza tecnicismi',
      title: 'La finanza personale spiegata in parole semplici',
      subtitle:
        'Niente gergo e niente promesse: una guida in PDF per capire dove vanno i tuoi soldi e come pianificare i prossimi passi.',
      bullets: [
        'Entrate, uscite e risparmio: le basi',
        'Fondo di emergenza e debiti senza ansia',
        'Che cosa significano inflazione e previdenza',
        'Come fissare obiettivi concreti e misurabili',
      ],
      submitLabel: 'Ricevi la guida via SMS',
    },
  },
};
