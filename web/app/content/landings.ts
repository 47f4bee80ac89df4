import type { LandingContent } from './types';

/**
 * Copy of the landing pages. Educational only: no promises of gains, no urgency,
 * no figures that cannot be proven. The disclaimer paragraphs are shown in full.
 */

/** Personal-finance guide ('financial-education'): /, /trading-automatico, /ai-trading-native, /trading-news-native. */
export const financeLanding: LandingContent = {
  title: 'Guida gratuita di educazione finanziaria',
  description:
    "Bilancio familiare, fondo di emergenza, debiti, inflazione e previdenza: una guida gratuita in PDF per gestire meglio i tuoi soldi. Il link arriva via SMS.",
  hero: {
    eyebrow: 'Guida gratuita di finanza personale',
    title: 'Fai ordine nei tuoi soldi prima di pensare ai mercati',
    subtitle:
      "Una guida in PDF, chiara e senza tecnicismi, per capire dove vanno le tue entrate, come mettere da parte e come pianificare con calma.",
    bullets: [
      'Come costruire un bilancio familiare e tenerlo aggiornato',
      'Fondo di emergenza, debiti e risparmio: da dove cominciare',
      "Inflazione e previdenza in Italia e in Svizzera, spiegate in modo semplice",
      'Come fissare obiettivi concreti e misurabili',
    ],
  },
  form: {
    title: 'Ricevi la guida gratuita',
    subtitle:
      'Inserisci i tuoi dati: in pochi secondi ricevi via SMS il link personale per scaricare il PDF.',
    submitLabel: 'Ricevi la guida gratuita',
  },
  benefits: {
    title: 'Che cosa trovi nella guida',
    cards: [
      {
        title: 'Un quadro chiaro',
        text: "Impari a vedere entrate, uscite e risparmi in un colpo d'occhio, con un metodo semplice da seguire ogni mese.",
      },
      {
        title: 'Più serenità negli imprevisti',
        text: 'Capisci perché serve un fondo di emergenza, a quanto dovrebbe ammontare secondo le indicazioni più diffuse e come costruirlo un passo alla volta.',
      },
      {
        title: 'Debiti sotto controllo',
        text: 'Scopri come confrontare il costo di un prestito, leggere il TAEG e scegliere quali debiti ridurre per primi.',
      },
      {
        title: 'Basi per capire i mercati',
        text: 'Inflazione, previdenza e obiettivi di lungo periodo: le nozioni da avere chiare prima di valutare qualsiasi investimento.',
      },
    ],
  },
  disclaimer: {
    title: 'Avvertenze sui rischi',
    paragraphs: [
      "La guida è materiale esclusivamente educativo e informativo: non costituisce consulenza in materia di investimenti, né una raccomandazione o un'offerta relativa a prodotti finanziari, assicurativi o previdenziali. Le informazioni hanno carattere generale e non tengono conto della tua situazione personale.",
      "Ogni investimento comporta il rischio di perdere, in tutto o in parte, il capitale investito, e i risultati passati non sono indicativi di quelli futuri. I CFD sono strumenti complessi e, a causa della leva finanziaria, comportano un rischio elevato di perdere denaro rapidamente: la maggior parte dei conti degli investitori al dettaglio perde denaro negoziando CFD. Valuta se comprendi il loro funzionamento e se puoi permetterti di correre un rischio così alto.",
    ],
  },
};

/** Investment-education guide: /market-report-native, /educazione-investimenti. */
export const investmentLanding: LandingContent = {
  title: 'Guida gratuita: investire con consapevolezza',
  description:
    "Rischio e rendimento, diversificazione, costi, ETF, azioni e oro: una guida gratuita in PDF per capire le basi dell'investimento. Il link arriva via SMS.",
  hero: {
    eyebrow: "Guida gratuita all'investimento",
    title: 'Le basi per investire con consapevolezza',
    subtitle:
      "Una guida in PDF per capire i concetti essenziali prima di scegliere qualsiasi prodotto: niente promesse, solo spiegazioni chiare ed esempi onesti.",
    bullets: [
      'Il legame tra rischio, rendimento e orizzonte temporale',
      'Diversificazione e costi: perché contano più di quanto sembri',
      'ETF, azioni singole e oro a confronto, con pregi e limiti',
      "L'interesse composto e gli errori di comportamento più comuni",
    ],
  },
  form: {
    title: 'Ricevi la guida gratuita',
    subtitle:
      'Lascia i tuoi dati: in pochi secondi ti arriva via SMS il link personale per scaricare il PDF.',
    submitLabel: 'Ricevi la guida gratuita',
  },
  benefits: {
    title: 'Che cosa imparerai',
    cards: [
      {
        title: 'Capire il rischio',
        text: 'Scopri perché rendimento e rischio vanno sempre insieme e come valutare quanto sei disposto a sopportare le oscillazioni.',
      },
      {
        title: 'Diversificare davvero',
        text: 'Vedi come funziona la diversificazione tra titoli, settori e Paesi, e perché da sola non elimina il rischio.',
      },
      {
        title: 'Leggere i costi',
        text: 'Impari a riconoscere commissioni, TER e spread, e a capire quanto pesano sul risultato nel lungo periodo.',
      },
      {
        title: 'Evitare gli errori comuni',
        text: "Conosci le trappole del comportamento, come inseguire ciò che è già salito o vendere in preda al panico, per decidere con più lucidità.",
      },
    ],
  },
  disclaimer: {
    title: 'Avvertenze sui rischi',
    paragraphs: [
      "La guida è materiale esclusivamente educativo e informativo: non costituisce consulenza in materia di investimenti, né una raccomandazione o un'offerta di acquisto o di vendita di strumenti finanziari. Gli esempi numerici sono ipotetici e non rappresentano rendimenti attesi.",
      'Ogni investimento comporta il rischio di perdere, in tutto o in parte, il capitale investito. I risultati passati non sono indicativi di quelli futuri.',
      "I CFD sono strumenti complessi e, a causa della leva finanziaria, comportano un rischio elevato di perdere denaro rapidamente. La maggior parte dei conti degli investitori al dettaglio perde denaro negoziando CFD. Valuta se comprendi il funzionamento di questi strumenti e se puoi permetterti di correre un rischio così alto di perdere il tuo denaro.",
    ],
  },
};

/** The older trading-guide page (/trading-old), guide 'general'. */
export const olderLanding: LandingContent = {
  title: 'Guida gratuita al trading: mercati, leva e rischi',
  description:
    "Come funzionano i mercati, cosa sono leva e CFD, come riconoscere truffe e intermediari autorizzati: la guida gratuita da leggere prima di fare trading.",
  hero: {
    eyebrow: 'Guida gratuita al trading',
    title: 'Capire il trading e i suoi rischi, prima di tutto',
    subtitle:
      "Una guida introduttiva in PDF per sapere come funzionano i mercati e quali rischi comporta il trading, prima di prendere qualsiasi decisione.",
    bullets: [
      "Come si formano i prezzi e che differenza c'è tra trading e investimento",
      'Leva finanziaria e CFD: come funzionano e perché sono così rischiosi',
      'Come verificare un intermediario su CONSOB e FINMA e riconoscere le truffe',
      'Conto demo e piano scritto: come prepararsi senza rischiare denaro',
    ],
  },
  form: {
    title: 'Ricevi la guida gratuita',
    subtitle:
      'Compila il modulo: in pochi secondi ricevi via SMS il link personale per scaricare il PDF.',
    submitLabel: 'Ricevi la guida gratuita',
  },
  benefits: {
    title: 'Perché leggerla prima di iniziare',
    cards: [
      {
        title: 'Sapere come funzionano i mercati',
        text: 'Azioni, obbligazioni, valute, materie prime e indici: cosa sono, come si formano i prezzi e quanto costa ogni operazione.',
      },
      {
        title: 'Conoscere la leva',
        text: 'Con un esempio concreto vedi come la leva amplifica guadagni e perdite e perché la maggior parte dei conti al dettaglio perde denaro con i CFD.',
      },
      {
        title: 'Difenderti dalle truffe',
        text: 'Impari a verificare se un intermediario è autorizzato e a riconoscere i segnali tipici delle proposte fraudolente.',
      },
      {
        title: 'Decidere con un piano',
        text: 'Obiettivi, capitale dedicato e regole di rischio: gli elementi per valutare con calma se il trading fa davvero per te.',
      },
    ],
  },
  disclaimer: {
    title: 'Avvertenze sui rischi',
    paragraphs: [
      "La guida è materiale esclusivamente educativo e informativo: non costituisce consulenza in materia di investimenti, né una raccomandazione o un'offerta di acquisto o di vendita di strumenti finanziari. Le informazioni hanno carattere generale e non tengono conto della tua situazione personale.",
      "I CFD sono strumenti complessi e, a causa della leva finanziaria, comportano un rischio elevato di perdere denaro rapidamente. La maggior parte dei conti degli investitori al dettaglio perde denaro negoziando CFD. Valuta se comprendi il funzionamento dei CFD e se puoi permetterti di correre un rischio così alto di perdere il tuo denaro.",
      'Ogni investimento comporta il rischio di perdere, in tutto o in parte, il capitale investito. I risultati passati non sono indicativi di quelli futuri.',
    ],
  },
};
