import { days, minutes, type SmsCopy } from './sms-copy';
import type { ThankYouContent } from './types';

export type { SmsCopy } from './sms-copy';

/**
 * Thank-you pages (/grazie-italia, /grazie-svizzera, /grazie, /grazie-neutral) and the
 * welcome page (/welcome). They explain what happens after a request: the SMS with the
 * personal link, its validity, and what to do if the message does not arrive. The sender
 * and the link's validity follow the configuration the worker sends with (SmsCopy).
 */

/** ` dal mittente "X"`, or nothing when the sender is not known in advance. */
const fromSender = ({ sender }: SmsCopy) => (sender ? ` dal mittente "${sender}"` : '');
/** `L'SMS di "X"` or `L'SMS`. */
const theSmsOf = ({ sender }: SmsCopy, noun = "L'SMS") => (sender ? `${noun} di "${sender}"` : noun);
const blockedSenders = ({ sender }: SmsCopy) =>
  sender ? `, dove potrebbe comparire "${sender}"` : '';

/** When the link goes by email: the SMS failed, or it is late (held by a budget) past the configured minutes. */
const emailFallback = (sms: SmsCopy, where: string) =>
  `Se l'SMS non può essere consegnato, o tarda più di ${minutes(sms.heldEmailMinutes)}, ti inviamo automaticamente il link ${where}`;

/**
 * What a visitor who asked again within a day gets (decision 029: one SMS per phone and 24
 * hours), told to every visitor alike: the page reveals nothing about a number.
 */
const REPEAT_WITHIN_A_DAY =
  'Se con questo numero avevi già chiesto la guida nelle ultime 24 ore, non ti inviamo un secondo SMS: il link valido è quello del primo messaggio.';

export const thankYouItaly = (sms: SmsCopy): ThankYouContent => ({
  title: 'Richiesta ricevuta: la guida arriva via SMS',
  description:
    'Grazie per la richiesta: tra pochi secondi ricevi via SMS il link personale alla guida gratuita in PDF, e qui trovi cosa fare se non arriva.',
  heading: 'Grazie! La tua guida è in arrivo',
  intro: `Abbiamo ricevuto la tua richiesta. Tra pochi secondi riceverai sul cellulare un SMS${fromSender(sms)} con il link personale per scaricare la guida gratuita in PDF.`,
  steps: [
    {
      title: 'Controlla i messaggi',
      text: `${theSmsOf(sms)} arriva di solito in pochi secondi e comunque entro 2 minuti.`,
    },
    {
      title: 'Apri il link personale',
      text: `Il link è riservato a te e resta valido per ${days(sms.linkDays)}. Aprendolo, il download del PDF parte subito.`,
    },
    {
      title: 'Leggi con calma',
      text: 'Puoi leggere la guida su telefono, tablet o computer, quando vuoi. È materiale educativo, non una consulenza.',
    },
  ],
  notArrived: {
    title: "L'SMS non è arrivato?",
    items: [
      "Controlla di aver scritto correttamente il numero di cellulare, con il prefisso italiano +39.",
      'Attendi fino a 2 minuti: a volte la consegna richiede qualche istante in più.',
      `Verifica che il telefono non abbia spostato o bloccato il messaggio: controlla i filtri per gli SMS da mittenti sconosciuti e l'elenco dei mittenti bloccati${blockedSenders(sms)}.`,
      emailFallback(sms, "all'indirizzo email che hai indicato nel modulo: controlla anche la cartella spam."),
      REPEAT_WITHIN_A_DAY,
      'Se non ricevi nulla, puoi fare una nuova richiesta dopo 24 ore.',
      'Per richieste sulla privacy e sui tuoi dati personali consulta la pagina "I tuoi diritti (GDPR)", all\'indirizzo /gdpr.',
    ],
  },
});

export const thankYouSwitzerland = (sms: SmsCopy): ThankYouContent => ({
  title: 'Richiesta ricevuta: la guida arriva via SMS',
  description:
    'Grazie per la richiesta dalla Svizzera: tra pochi secondi ricevi sul tuo numero +41 un SMS con il link personale alla guida gratuita in PDF.',
  heading: 'Grazie! La tua guida è in arrivo',
  intro: `Abbiamo ricevuto la tua richiesta. Tra pochi secondi riceverai sul tuo cellulare svizzero un SMS${fromSender(sms)} con il link personale per scaricare la guida gratuita in PDF.`,
  steps: [
    {
      title: 'Controlla i messaggi',
      text: `${theSmsOf(sms)} arriva di solito in pochi secondi e comunque entro 2 minuti, anche sui numeri +41.`,
    },
    {
      title: 'Apri il link personale',
      text: `Il link è riservato a te e resta valido per ${days(sms.linkDays)}. Aprendolo, il download del PDF parte subito.`,
    },
    {
      title: 'Leggi con calma',
      text: 'Puoi leggere la guida su telefono, tablet o computer, quando vuoi. È materiale educativo, non una consulenza.',
    },
  ],
  notArrived: {
    title: "L'SMS non è arrivato?",
    items: [
      'Controlla di aver scritto correttamente il numero di cellulare, con il prefisso svizzero +41 (per esempio +41 79 …, senza lo zero iniziale).',
      'Attendi fino a 2 minuti: a volte la consegna richiede qualche istante in più.',
      `Verifica che il telefono non abbia spostato o bloccato il messaggio: controlla i filtri per gli SMS da mittenti sconosciuti e l'elenco dei mittenti bloccati${blockedSenders(sms)}.`,
      emailFallback(sms, "all'indirizzo email che hai indicato nel modulo: controlla anche la cartella spam."),
      REPEAT_WITHIN_A_DAY,
      'Se non ricevi nulla, puoi fare una nuova richiesta dopo 24 ore.',
      'Per richieste sulla privacy e sui tuoi dati personali consulta la pagina "I tuoi diritti (GDPR)", all\'indirizzo /gdpr.',
    ],
  },
});

/** /grazie and /grazie-neutral: no country. */
export const thankYouNeutral = (sms: SmsCopy): ThankYouContent => ({
  title: 'Grazie: la tua guida gratuita è in arrivo',
  description:
    'La tua richiesta è stata registrata: entro pochi secondi ricevi un SMS con il link personale per scaricare la guida gratuita in PDF.',
  heading: 'Grazie! Abbiamo ricevuto la tua richiesta',
  intro: `Tra pochi secondi riceverai sul cellulare un SMS${fromSender(sms)} con il link personale per scaricare la guida gratuita in PDF. Ecco cosa succede adesso.`,
  steps: [
    {
      title: "Arriva l'SMS",
      text: `${theSmsOf(sms, 'Il messaggio')} arriva di solito in pochi secondi e comunque entro 2 minuti dalla richiesta.`,
    },
    {
      title: 'Apri il link',
      text: `Il link è personale e resta valido per ${days(sms.linkDays)}. Quando lo apri, il download del PDF parte in automatico.`,
    },
    {
      title: 'Leggi la guida',
      text: 'Salva il PDF e leggilo con i tuoi tempi, su qualsiasi dispositivo. È materiale educativo, non una consulenza.',
    },
  ],
  notArrived: {
    title: 'Il messaggio non arriva?',
    items: [
      'Controlla di aver inserito correttamente il numero di cellulare, compreso il prefisso internazionale (+39 per l\'Italia, +41 per la Svizzera).',
      'Attendi fino a 2 minuti: a volte la consegna richiede qualche istante in più.',
      `Controlla i filtri per gli SMS e l'elenco dei mittenti bloccati del telefono: il messaggio potrebbe essere stato fermato lì${sms.sender ? `, con il nome "${sms.sender}"` : ''}.`,
      emailFallback(sms, "all'indirizzo email indicato nel modulo: guarda anche nello spam."),
      REPEAT_WITHIN_A_DAY,
      'Se ancora non hai ricevuto nulla, puoi ripetere la richiesta dopo 24 ore.',
      'Per richieste sulla privacy e sui tuoi dati personali consulta la pagina "I tuoi diritti (GDPR)", all\'indirizzo /gdpr.',
    ],
  },
});

/** /welcome: for visitors who arrive from one of our SMS or emails. */
export const welcomePage = (sms: SmsCopy): ThankYouContent => ({
  title: 'Benvenuto su Guida Finanza: guide gratuite',
  description:
    'Guida Finanza offre tre guide gratuite in PDF di educazione finanziaria: finanza personale, investimenti e trading. Scopri come riceverle via SMS.',
  heading: 'Benvenuto su Guida Finanza',
  intro:
    "Guida Finanza è un sito di educazione finanziaria in italiano, per chi vive in Italia e in Svizzera. Offriamo tre guide gratuite in PDF: una sulla finanza personale (bilancio, risparmio, debiti e previdenza), una sulle basi dell'investimento e una introduttiva su mercati, trading e rischi. Sono materiale educativo, non una consulenza finanziaria.",
  steps: [
    {
      title: 'Scegli la guida',
      text: "Parti dalla finanza personale se vuoi fare ordine nei conti, dalle basi dell'investimento o dalla guida su mercati e trading.",
    },
    {
      title: 'Compila il modulo',
      text: 'Inserisci nome, cognome, email e un numero di cellulare italiano (+39) o svizzero (+41). Non serve alcun pagamento.',
    },
    {
      title: 'Ricevi il link',
      text: `In pochi secondi, e comunque entro 2 minuti, ricevi un SMS${fromSender(sms)} con il link personale al PDF, valido ${days(sms.linkDays)}.`,
    },
  ],
  notArrived: {
    title: 'Domande frequenti',
    items: [
      'Le guide sono davvero gratuite? Sì: non ti chiediamo carta di credito né pagamenti di alcun tipo.',
      `Chi invia gli SMS? ${sms.sender ? `I messaggi con il link arrivano dal mittente "${sms.sender}".` : 'Li inviamo noi, Guida Finanza, tramite il nostro fornitore di SMS.'} Il link è personale e scade dopo ${days(sms.linkDays)}.`,
      `E se l'SMS non arriva? Controlla il numero inserito e i filtri del telefono; se l'SMS non può essere consegnato, o tarda più di ${minutes(sms.heldEmailMinutes)}, ti mandiamo il link via email. Puoi ripetere la richiesta dopo 24 ore.`,
      'Le guide sono una consulenza? No: sono materiale educativo e non contengono raccomandazioni su prodotti finanziari da comprare o vendere.',
      "Come usate i miei dati? Per inviarti la guida e gestire la tua richiesta; le comunicazioni promozionali arrivano solo se dai il consenso facoltativo, e non vendiamo i tuoi dati. Trovi i dettagli nella Privacy Policy (/privacy).",
      'Come esercito i miei diritti sulla privacy? Consulta la pagina "I tuoi diritti (GDPR)", all\'indirizzo /gdpr.',
    ],
  },
});
