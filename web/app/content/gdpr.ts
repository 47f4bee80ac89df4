import type { PageMeta } from './types';

/** Content of the /gdpr page: the data-subject rights and how a request is handled. */
export const gdprPage: {
  meta: PageMeta;
  heading: string;
  intro: string;
  rights: { title: string; text: string }[];
  howItWorks: string[];
  formTitle: string;
  formIntro: string;
  alternativeContact: string;
} = {
  meta: {
    title: 'I tuoi diritti sulla privacy | Guida Finanza',
    description:
      'Accesso, rettifica, cancellazione, portabilità, opposizione e revoca del consenso: come esercitare gratis e in sicurezza i tuoi diritti sui dati personali.',
  },
  heading: 'I tuoi diritti sulla privacy',
  intro:
    'I dati che ci hai lasciato per ricevere la guida restano tuoi. Il GDPR e, per chi vive in Svizzera, la legge federale sulla protezione dei dati ti permettono di sapere che cosa conserviamo, di correggerlo, di farlo cancellare e di portarlo con te. Qui trovi i tuoi diritti e come esercitarli, gratuitamente.',
  rights: [
    {
      title: 'Accesso',
      text: 'Puoi chiederci se trattiamo dati che ti riguardano e riceverne una copia completa. Insieme ai dati ti spieghiamo per quali finalità li usiamo, a chi li comunichiamo e per quanto tempo li conserviamo.',
    },
    {
      title: 'Rettifica',
      text: 'Se un dato è sbagliato o incompleto, ad esempio un refuso nel nome o un indirizzo email cambiato, puoi chiederci di correggerlo. Aggiorniamo i dati anche presso i fornitori che li trattano per nostro conto.',
    },
    {
      title: 'Cancellazione',
      text: 'Puoi chiederci di cancellare i tuoi dati, per esempio quando non ti servono più le nostre comunicazioni o quando revochi il consenso. Conserviamo soltanto ciò che la legge ci impone di tenere, come la prova del consenso, e ti confermiamo quando la cancellazione è completata.',
    },
    {
      title: 'Portabilità',
      text: 'Puoi ricevere i dati che ci hai fornito in un formato strutturato e leggibile da un computer (JSON o CSV). Così puoi conservarli o trasmetterli a un altro servizio, se lo desideri.',
    },
    {
      title: 'Opposizione',
      text: 'Puoi opporti ai trattamenti che si basano sul nostro legittimo interesse, spiegandoci i motivi legati alla tua situazione. Alle comunicazioni promozionali puoi opporti sempre, senza dover dare alcuna spiegazione.',
    },
    {
      title: 'Revoca del consenso',
      text: 'Puoi ritirare in qualsiasi momento il consenso che ci hai dato, ad esempio quello alle comunicazioni informative e promozionali. La revoca vale per il futuro: non rende illecito quanto fatto prima, ma da quel momento smettiamo di usare i tuoi dati per quello scopo.',
    },
  ],
  howItWorks: [
    "Invii la richiesta indicando l'indirizzo email con cui hai chiesto la guida e il tipo di richiesta: accesso, rettifica, cancellazione o portabilità.",
    'Ricevi via email un link di conferma: trattiamo solo le richieste confermate, così nessuno può agire sui tuoi dati al posto tuo. Per lo stesso motivo questa pagina non indica mai se un indirizzo email è presente nei nostri archivi.',
    'Ti rispondiamo entro un mese dal ricevimento della richiesta. Se la richiesta è particolarmente complessa il termine può essere prorogato di altri due mesi, e in quel caso te lo comunichiamo entro il primo mese spiegandoti il motivo.',
    "Per l'accesso e la portabilità ricevi un link personale, con scadenza, per scaricare i tuoi dati in formato JSON o CSV. Per la cancellazione ti inviamo una conferma quando è stata completata.",
  ],
  formTitle: 'Invia una richiesta',
  formIntro:
    "Compila il modulo con l'indirizzo email che hai usato per richiedere la guida e scegli il tipo di richiesta. Riceverai un link di conferma: senza la tua conferma non procediamo.",
  alternativeContact:
    'Per l’opposizione, la revoca del consenso o qualsiasi altra domanda sui tuoi dati puoi anche scriverci a',
};
