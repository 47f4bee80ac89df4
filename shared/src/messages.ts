/**
 * Visitor- and admin-facing Italian texts. Strings quoted by the original site's
 * specification are copied verbatim; the rest are ours and follow the same tone.
 */

export const validationMessages = {
  nome: 'Il nome deve contenere almeno 2 caratteri',
  cognome: 'Il cognome deve contenere almeno 2 caratteri',
  email: 'Inserisci un indirizzo email valido',
  telefono: 'Inserisci un numero di telefono valido',
  gdprConsent: 'È necessario accettare il trattamento dei dati personali per procedere',
  ebookType: 'Tipo di guida non valido',
  text: 'Il testo inserito non è valido',
  requestType: 'Tipo di richiesta non valido',
  controlCharacters: 'Il testo contiene caratteri non ammessi.',
  /** Any invalid field without a message of its own (a wrong type, a value out of range). */
  invalidValue: 'Il valore inserito non è valido.',
  /** A UTM parameter, click id or referrer host that breaks its rule (attribution-rules.ts). */
  campaign: 'Parametro della campagna non valido.',
} as const;

export const formMessages = {
  submitting: 'Invio in corso...',
  consentRequiredTitle: 'Consenso richiesto',
  consentRequiredText: "Devi accettare l'informativa sulla privacy per continuare",
  errorTitle: 'Errore',
  errorFallbackOlderPage: 'Si è verificato un errore. Riprova più tardi.',
  errorFallbackNewerPages: 'Si è verificato un errore. Riprova.',
  errorAnalyticsFallback: "Errore durante l'invio della richiesta",
} as const;

/**
 * The offer has ended (decision 047): a heading, and why. The lead intake answers 410 with
 * the reason's text; the pages show both in place of the guide form.
 */
export const offerEndedTexts = {
  title: 'Offerta terminata',
  deadline: "L'offerta è scaduta: non è più possibile richiedere la guida gratuita.",
  places: 'Tutti i posti gratuiti sono stati assegnati: non è più possibile richiedere la guida gratuita.',
} as const;

/** Messages of the HTTP API, returned as `{ message }`. */
export const apiMessages = {
  invalidRequest: 'Richiesta non valida. Controlla i dati inseriti e riprova.',
  invalidJson: 'Richiesta non valida: il contenuto non è leggibile.',
  unsupportedContentType: 'Formato della richiesta non supportato.',
  /** 415 for a compressed body (Content-Encoding): public writes read plain bodies only. */
  compressedBody: 'Richiesta non accettata: il contenuto va inviato senza compressione.',
  payloadTooLarge: 'La richiesta è troppo grande.',
  honeypot: 'Impossibile inviare la richiesta. Ricarica la pagina e riprova.',
  tooManyRequests: 'Troppe richieste in poco tempo. Riprova tra qualche minuto.',
  serviceUnavailable:
    'Il servizio è momentaneamente non disponibile. Riprova tra qualche minuto.',
  notFound: 'Risorsa non trovata.',
  internalError: 'Si è verificato un errore imprevisto. Riprova più tardi.',
  invalidSignature: 'Firma della richiesta non valida.',
  metricsUnauthorized: 'Token di accesso alle metriche mancante o non valido.',
  crossSiteRequest: 'Richiesta rifiutata: il modulo va inviato da una pagina di questo sito.',
  /** 410 from the lead intake once the offer's deadline has passed. */
  offerEndedDeadline: offerEndedTexts.deadline,
  /** 410 from the lead intake once the offer's free places are all taken. */
  offerEndedPlaces: offerEndedTexts.places,
} as const;

/** Pages shown for the personal guide link. */
export const guideLinkPages = {
  notFoundTitle: 'Link non valido',
  notFoundText:
    'Il link che hai aperto non è valido. Controlla di averlo copiato per intero dal messaggio che ti abbiamo inviato.',
  expiredTitle: 'Link scaduto',
  expiredText:
    'Questo link per scaricare la guida è scaduto. Puoi richiederne uno nuovo compilando di nuovo il modulo: lo riceverai via SMS in pochi secondi.',
  unavailableTitle: 'Guida momentaneamente non disponibile',
  unavailableText:
    'Non riusciamo a preparare la guida in questo momento. Riprova tra qualche minuto.',
  backHome: 'Torna alla pagina iniziale',
} as const;

/** The spec titles the 404 page "Page Not Found"; its text is Italian. */
export const notFoundPage = {
  title: 'Page Not Found',
  text: 'La pagina che cerchi non esiste o è stata spostata.',
  backHome: 'Torna alla pagina iniziale',
} as const;

/** Pages shown after a plain (no-JavaScript) form post that failed. */
export const formErrorPage = {
  title: 'Controlla i dati inseriti',
  intro: 'Non è stato possibile inviare la richiesta per questi motivi:',
  back: 'Torna al modulo',
} as const;

/**
 * Why the guide's link goes by email: the SMS failed; it is late (held by a budget past
 * SMS_HELD_EMAIL_AFTER_MINUTES: it still goes later, unless the guide is downloaded from
 * this link first); or the phone had just received the guide for a request with another
 * email address (it may have been this visitor's phone, claimed first by someone else).
 */
export type GuideEmailReason = 'failed' | 'delayed' | 'phone-served';
const GUIDE_EMAIL_OPENINGS: Record<GuideEmailReason, string> = {
  failed: 'non siamo riusciti a consegnarti il link della guida via SMS, quindi te lo inviamo qui.',
  delayed:
    "l'SMS con il link della guida è in ritardo, quindi te lo inviamo anche qui. Se scarichi la guida da questo link, l'SMS non ti verrà più inviato.",
  'phone-served':
    "il numero di cellulare che hai indicato ha già ricevuto la guida via SMS nelle ultime 24 ore, per un'altra richiesta: per questo il tuo link personale te lo inviamo qui.",
};

export const guideDelivery = {
  /** SMS with the personal link; `name` passed greetingName and is reduced to GSM-7 characters. */
  smsWithName: (name: string, link: string, validDays: number) =>
    `Ciao ${name}, ecco la tua guida gratuita: ${link} (link valido ${validDays} giorni)`,
  smsWithoutName: (link: string, validDays: number) =>
    `Ecco la tua guida gratuita: ${link} (link valido ${validDays} giorni)`,
  emailSubject: 'La tua guida gratuita',
  /** `name` is greetingName's answer: null greets without a name. */
  emailText: (name: string | null, link: string, validDays: number, why: GuideEmailReason) =>
    [
      name ? `Ciao ${name},` : 'Ciao,',
      '',
      GUIDE_EMAIL_OPENINGS[why],
      '',
      `Scarica la tua guida gratuita: ${link}`,
      `Il link è personale e resta valido per ${validDays} giorni.`,
      '',
      'Hai ricevuto questa email perché hai richiesto la guida sul nostro sito.',
      'Se non sei stato tu, ignora questo messaggio.',
    ].join('\n'),
} as const;

/**
 * Label of the privacy checkbox next to the guide form. Its SHA-256 is stored with every
 * consent; change PRIVACY_CONSENT_VERSION (lead-rules.ts) whenever this text changes.
 */
export const privacyConsentText =
  "Ho letto l'informativa sulla privacy e acconsento al trattamento dei miei dati personali per ricevere la guida gratuita via SMS.";

/**
 * Label of the optional marketing checkbox (unticked by default); the privacy notice
 * describes this purpose. Change MARKETING_CONSENT_VERSION (lead-rules.ts) with this text.
 */
export const marketingConsentText =
  'Acconsento a ricevere comunicazioni informative e promozionali via email e SMS (facoltativo).';

/** Cookie banner and settings panel (titles and labels as in the spec). */
export const cookieTexts = {
  bannerTitle: 'Utilizziamo i cookie per migliorare la tua esperienza',
  bannerText:
    'Usiamo cookie essenziali e, solo con il tuo consenso, cookie analitici, di marketing e di preferenza. La scelta vale 6 mesi e puoi cambiarla in ogni momento.',
  /** The effect of the × (Garante, 2021 cookie guidelines: it must be stated). */
  bannerCloseEffect: 'Se chiudi questo avviso con la ×, usiamo solo i cookie essenziali.',
  privacyLink: 'Leggi la nostra Privacy Policy',
  customize: 'Personalizza',
  essentialsOnly: 'Solo Essenziali',
  acceptAll: 'Accetta Tutti',
  closeBanner: 'Chiudi: accetta solo i cookie essenziali',
  panelTitle: 'Impostazioni Cookie',
  panelIntro:
    'Scegli quali cookie possiamo usare. I cookie essenziali servono al funzionamento del sito e non possono essere disattivati; gli altri restano spenti finché non li attivi.',
  required: 'Obbligatorio',
  save: 'Salva Preferenze',
  closePanel: 'Chiudi le impostazioni cookie',
  reopen: 'Preferenze cookie',
  categories: {
    essential: {
      title: 'Cookie Essenziali',
      description:
        'Necessari per il funzionamento del sito, ad esempio per ricordare la tua scelta sui cookie e proteggere i moduli. Non possono essere disattivati.',
    },
    analytics: {
      title: 'Cookie Analitici',
      description: 'Ci aiutano a capire come i visitatori usano il sito, in forma aggregata, per migliorarlo.',
    },
    marketing: {
      title: 'Cookie di Marketing',
      description:
        'Permettono di mostrarti pubblicità personalizzata in base ai tuoi interessi e di sapere da quale annuncio sei arrivato (l’identificativo del clic).',
    },
    preferences: {
      title: 'Cookie di Preferenza',
      description: 'Ricordano le tue preferenze, come le impostazioni di visualizzazione, tra una visita e l’altra.',
    },
  },
} as const;

/** The admin area (login, authorisation, actions). */
export const adminMessages = {
  invalidCredentials: 'Nome utente o password non corretti.',
  tooManyAttempts: 'Troppi tentativi di accesso. Riprova tra qualche minuto.',
  signedOut: 'Sessione scaduta o non valida. Accedi di nuovo.',
  forbidden: 'Accesso negato: il tuo account non è amministratore.',
  csrf: 'Richiesta non valida: ricarica la pagina e riprova.',
  leadNotFound: 'Lead non trovato.',
  smsRequeued: 'SMS rimesso in coda: partirà a breve.',
  crmRequeued: 'Invio al CRM rimesso in coda.',
  jobRetried: 'Job rimesso in coda.',
  jobNotFound: 'Job non trovato o non in errore.',
  smsInProgress: 'L’SMS di questo lead è già in coda o in invio.',
  crmInProgress: 'L’invio al CRM di questo lead è già in coda.',
  emailInProgress: 'Questa email è già in coda o in invio.',
  conversionInProgress: 'Questa conversione è già in coda o in invio.',
  noSms: 'Questo lead non ha un SMS da inviare di nuovo.',
  noCrmDelivery: 'Questo lead non ha un invio al CRM da ripetere.',
  deliveryNotFound: 'Invio non trovato: il lead potrebbe essere stato cancellato.',
  deliveryFinished: 'Questo invio è già concluso: non c’è nulla da ritentare.',
  queueNotFound: 'Coda sconosciuta.',
  queueUnavailable: 'Code non raggiungibili: Redis non risponde. Riprova tra poco.',
  loginBusy: 'Troppi accessi in corso in questo momento. Riprova tra qualche secondo.',
  loginSlowedDown: 'Troppi tentativi non riusciti da questo dispositivo: attendi e riprova.',
  invalidDay: 'Data non valida (AAAA-MM-GG).',
  invalidFilter: 'Filtro non valido.',
  invalidPeriod: 'Periodo non valido: scegli 1, 7 o 30 giorni.',
  /** The second factor (docs/decisions/054). */
  codeRequired: 'Inserisci il codice di 6 cifre dell’app di autenticazione',
  codeFormat: 'Il codice è di 6 cifre: inseriscilo come lo mostra l’app',
  loginCodeFormat: 'Inserisci il codice di 6 cifre dell’app o un codice di recupero',
  wrongCode: 'Codice non valido o già usato. Inserisci il codice che l’app mostra ora.',
  secondFactorExpired: 'Verifica scaduta o non valida: inserisci di nuovo nome utente e password.',
  secondFactorUnreadable:
    'Il secondo fattore di questo account non è leggibile (la chiave del server è cambiata): chiedi a chi gestisce il server di reimpostarlo con admin:create --reset-second-factor.',
  recoveryCodesRegenerated: 'Nuovi codici di recupero generati: quelli di prima non valgono più.',
} as const;

/**
 * The automatic anti-robot check (a proof-of-work the browser solves) that the lead and
 * data-rights forms ask for when traffic looks wrong: the API's answers and the form's texts.
 */
export const challengeMessages = {
  required: 'Prima di inviare serve una breve verifica automatica anti-robot. Attendi qualche secondo e invia di nuovo.',
  invalid: 'La verifica anti-robot non è valida o è scaduta. Ripetila e invia di nuovo.',
  /** Shown above the widget while the form waits for it. */
  intro: 'Un’ultima verifica automatica anti-robot: il modulo parte appena è completata.',
  verifying: 'Verifica in corso…',
} as const;

/**
 * The page a form posted without JavaScript gets when the anti-robot check is demanded and
 * the post carries no valid solution (decision 053): why, that nothing was stored or sent,
 * and the way back to the form, where the browser solves it.
 */
export const challengePage = {
  title: 'Serve una verifica anti-robot',
  why: 'In questo momento il modulo chiede una breve verifica automatica anti-robot prima di ogni invio, per fermare gli invii automatici.',
  invalid: 'La verifica anti-robot inviata con il modulo non è valida o è scaduta.',
  nothingSent: 'La richiesta non è stata inviata: i dati inseriti non sono stati salvati né trasmessi.',
  how: 'La verifica la svolge il tuo browser da solo, in pochi secondi, e richiede JavaScript. Torna al modulo, attiva JavaScript se è disattivato e invia di nuovo: la verifica si completa prima dell’invio.',
  back: 'Torna al modulo',
} as const;

/** The anti-robot widget's labels (ALTCHA's string keys), loaded with the widget only. */
export const challengeWidgetTexts = {
  label: 'Non sono un robot',
  verify: 'Verifica',
  verifying: challengeMessages.verifying,
  verified: 'Verificato',
  verificationRequired: 'Verifica richiesta.',
  waitAlert: 'Verifica in corso… attendi qualche secondo.',
  loading: 'Caricamento…',
  error: 'Verifica non riuscita. Riprova.',
  expired: 'Verifica scaduta. Riprova.',
  reload: 'Ricarica',
  footer: '',
  ariaLinkLabel: 'ALTCHA',
  enterCode: 'Inserisci il codice',
  enterCodeAria: 'Inserisci il codice che senti. Premi la barra spaziatrice per ascoltare l’audio.',
  getAudioChallenge: 'Ascolta il codice',
  cancel: 'Annulla',
  enterCodeFromImage: 'Per continuare, inserisci il codice dell’immagine qui sotto.',
} as const;

/** First-party analytics, live figures and session ids. */
export const analyticsMessages = {
  sessionId: 'Identificativo di sessione non valido.',
  path: 'Percorso della pagina non valido.',
  tooLong: 'Testo troppo lungo.',
  invalidValue: validationMessages.invalidValue,
  tooManyEvents: 'Troppi eventi in una sola richiesta.',
  dailyBudgetExceeded: 'Sono stati inviati troppi dati statistici oggi da questa rete. Riprova domani.',
  unknownPage: 'Statistiche non disponibili per questa pagina.',
} as const;

/** The SMS budgets in the admin (decision 025): the alert on every tab and its release. */
const smsCount = (count: number) => (count === 1 ? '1 SMS' : `${count} SMS`);

export const smsBudgetMessages = {
  alertTitle: 'Budget SMS superato: invii sospesi',
  alertHeld: (count: number) =>
    count === 1 ? '1 SMS è trattenuto e non è stato inviato.' : `${count} SMS sono trattenuti e non sono stati inviati.`,
  alertHeldTrusted: (count: number) =>
    count === 0
      ? 'Nessuno è affidabile.'
      : count === 1
        ? '1 è affidabile: il visitatore aveva aperto una pagina del sito prima del modulo.'
        : `${count} sono affidabili: il visitatore aveva aperto una pagina del sito prima del modulo.`,
  alertTripped: 'Limite raggiunto:',
  alertResume:
    'Gli SMS trattenuti partono da soli quando la finestra del budget si libera: prima gli affidabili, poi i più vecchi. Agli SMS non affidabili resta solo una parte di ogni budget.',
  release: 'Rilascia tutti',
  releaseConfirm: (count: number) =>
    `Inviare subito ${count === 1 ? "l'SMS trattenuto" : `i ${count} SMS trattenuti`}, anche se il budget è superato? Se si tratta di un attacco (SMS pumping), il costo resta a tuo carico.`,
  releaseTrusted: 'Rilascia solo gli affidabili',
  releaseTrustedConfirm: (count: number) =>
    `Inviare subito ${count === 1 ? "l'SMS affidabile trattenuto" : `i ${count} SMS affidabili trattenuti`}, anche se il budget è superato? Gli altri restano trattenuti.`,
  released: (count: number) =>
    count === 0 ? 'Nessun SMS trattenuto da rilasciare.' : count === 1 ? '1 SMS rilasciato: partirà a breve.' : `${count} SMS rilasciati: partiranno a breve.`,
  scopeGlobal: 'Totale',
  scopeCountry: (country: string) => (country === 'CH' ? 'Svizzera' : 'Italia'),
  scopeBlock: (block: string) => `Numeri +${block}…`,
  scopeNetwork: (network: string) => `Rete ${network}/${network.includes(':') ? 48 : 24}`,
  scopeAddress: (digest: string) => `Un indirizzo (impronta ${digest.slice(0, 8)})`,
  untrustedShare: 'parte per gli SMS non affidabili',
  windowHour: 'ultima ora',
  windowDay: 'ultime 24 ore',
  heldByBlock: 'SMS trattenuti per blocco di numeri',
  heldByNetwork: 'SMS trattenuti per rete',
  discardOpen: 'Scarta SMS trattenuti…',
  discardTitle: 'Scarta SMS trattenuti',
  discardIntro:
    'Gli SMS scartati non partono più e non ricevono l’email di ritardo: restano nel lead come «Saltato», con il motivo. Un lead scartato per errore si può reinviare dal suo dettaglio.',
  discardBlock: 'Blocco di numeri (prime 6 cifre, es. 393471)',
  discardNetwork: 'Rete del visitatore (IPv4 /24 o IPv6 /48)',
  discardAddress: 'Indirizzo IP del visitatore',
  discardFrom: 'Dal (ora italiana)',
  discardTo: 'Al (ora italiana, minuto compreso)',
  discardUntrustedOnly: 'Solo gli SMS non affidabili',
  discardSearch: 'Cerca gli SMS trattenuti',
  discardMatches: (count: number, trusted: number) =>
    count === 0
      ? 'Nessun SMS trattenuto corrisponde.'
      : `${count === 1 ? 'Corrisponde 1 SMS trattenuto' : `Corrispondono ${count} SMS trattenuti`}${trusted > 0 ? `, di cui ${trusted} affidabili` : ''}.`,
  discard: (count: number) => `Scarta ${smsCount(count)}`,
  discardConfirm: (count: number) =>
    `Scartare ${count === 1 ? "l'SMS trattenuto" : `i ${count} SMS trattenuti`} che corrispondono? Non saranno inviati.`,
  discarded: (count: number) =>
    count === 0 ? 'Nessun SMS trattenuto da scartare.' : count === 1 ? '1 SMS scartato: non sarà inviato.' : `${count} SMS scartati: non saranno inviati.`,
  noCriteria: 'Indica almeno un criterio: blocco, rete, indirizzo o periodo.',
  invalidBlock: 'Indica le prime 6 cifre del numero, prefisso internazionale compreso (es. 393471).',
  invalidNetwork: 'Indica una rete IPv4 /24 o IPv6 /48, o un suo indirizzo.',
  invalidAddress: 'Indica un indirizzo IPv4 o IPv6.',
  invalidTime: 'Indica giorno e ora.',
  invalidRange: 'La fine del periodo viene prima dell’inizio.',
} as const;
