/**
 * Italian texts of the data-protection requests that leave the site: the pages behind the
 * emailed links, the emails and the export's information. Used by the API and the worker
 * only, so they stay out of the browser bundle (gdpr-messages.ts has the form's texts).
 */

const RIGHTS_PAGE = '/gdpr';

/** Server-rendered pages behind the emailed links. */
export const gdprPages = {
  confirmTitle: 'Conferma la tua richiesta',
  confirmText: (typeLabel: string) =>
    `Stai per confermare la richiesta “${typeLabel}” per i dati personali associati al tuo indirizzo email.`,
  confirmDeletionWarning:
    'Attenzione: la cancellazione è definitiva. Dopo la cancellazione non potremo più inviarti la guida né recuperare i tuoi dati.',
  confirmButton: 'Conferma la richiesta',
  confirmedTitle: 'Richiesta confermata',
  confirmedText:
    'Grazie, la richiesta è confermata. La gestiamo entro un mese e ti scriviamo all’indirizzo che hai indicato.',
  alreadyConfirmedText: 'Questa richiesta era già stata confermata: non devi fare altro.',
  invalidLinkTitle: 'Link non valido',
  invalidLinkText:
    'Il link che hai aperto non è valido. Controlla di averlo copiato per intero dall’email che ti abbiamo inviato.',
  expiredLinkTitle: 'Link scaduto',
  confirmExpiredText:
    'Il link di conferma è scaduto. Se vuoi ancora esercitare il tuo diritto, invia di nuovo la richiesta dalla pagina dei tuoi diritti.',
  exportExpiredText:
    'Il link per scaricare i tuoi dati è scaduto e la copia dei dati è stata cancellata. Puoi chiederne una nuova dalla pagina dei tuoi diritti.',
  receivedTitle: 'Richiesta ricevuta',
  backToRights: { href: RIGHTS_PAGE, label: 'Torna alla pagina dei tuoi diritti' },
  /** The request form on its page (web/app/features/gdpr-request). */
  requestForm: `${RIGHTS_PAGE}#richiesta-gdpr`,
  /** When the anti-robot check stops a form posted without JavaScript (decision 053). */
  challengeAlternative:
    'Se non puoi attivare JavaScript, puoi esercitare i tuoi diritti anche scrivendo all’indirizzo email indicato nella pagina dei tuoi diritti, sotto il modulo.',
} as const;

const signature = ['', 'Lo staff di Guida Finanza'];

const longDate = new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeZone: 'Europe/Rome' });

/** The day a lead reaches the retention period, in Italian ("22 novembre 2028"). */
export function erasureDateOf(createdAt: Date, retentionMonths: number) {
  const date = new Date(createdAt);
  date.setUTCMonth(date.getUTCMonth() + retentionMonths);
  return longDate.format(date);
}

export const gdprEmails = {
  confirmSubject: 'Conferma la tua richiesta sui dati personali',
  confirmText: (typeLabel: string, link: string, validHours: number) =>
    [
      'Buongiorno,',
      '',
      `abbiamo ricevuto una richiesta “${typeLabel}” per i dati personali associati a questo indirizzo email.`,
      'Per confermarla apri questo link:',
      '',
      link,
      '',
      `Il link è personale e resta valido per ${validHours} ore. Senza conferma non facciamo nulla.`,
      'Se non hai inviato tu la richiesta, ignora questa email: i tuoi dati restano come sono.',
      ...signature,
    ].join('\n'),
  exportSubject: 'La copia dei tuoi dati personali',
  exportText: (jsonLink: string, csvLink: string, validDays: number) =>
    [
      'Buongiorno,',
      '',
      'come richiesto, abbiamo preparato una copia di tutti i dati personali che conserviamo per questo indirizzo email.',
      '',
      `Formato JSON: ${jsonLink}`,
      `Formato CSV: ${csvLink}`,
      '',
      `I link sono personali e restano validi per ${validDays} giorni; poi la copia viene cancellata.`,
      'Non inoltrare questa email: chiunque abbia il link può scaricare i tuoi dati.',
      ...signature,
    ].join('\n'),
  deletionCompletedSubject: 'I tuoi dati sono stati cancellati',
  deletionCompletedText: [
    'Buongiorno,',
    '',
    'come richiesto, abbiamo cancellato i dati personali associati a questo indirizzo email e chiesto ai fornitori che li trattano per nostro conto di fare lo stesso.',
    'Conserviamo soltanto una traccia anonima della cancellazione e, in forma pseudonimizzata, la prova dei consensi che ci avevi dato, come richiede la legge.',
    '',
    'Questa è l’ultima email che ricevi da noi.',
    ...signature,
  ].join('\n'),
  rectificationCompletedSubject: 'I tuoi dati sono stati corretti',
  rectificationCompletedText: [
    'Buongiorno,',
    '',
    'come richiesto, abbiamo corretto i tuoi dati personali e comunicato la correzione ai fornitori che li trattano per nostro conto.',
    `Se qualcosa non è ancora corretto, puoi inviare una nuova richiesta dalla pagina ${RIGHTS_PAGE} del sito.`,
    ...signature,
  ].join('\n'),
  rejectedSubject: 'La tua richiesta sui dati personali',
  rejectedText: (typeLabel: string, reason: string | null) =>
    [
      'Buongiorno,',
      '',
      `non abbiamo potuto accogliere la tua richiesta “${typeLabel}”.`,
      ...(reason ? ['', `Motivo: ${reason}`] : []),
      '',
      'Puoi rispondere a questa email per chiarimenti. Hai anche il diritto di proporre reclamo al Garante per la protezione dei dati personali (in Svizzera all’IFPDT).',
      ...signature,
    ].join('\n'),
  retentionNoticeSubject: 'Tra poco cancelleremo i tuoi dati',
  /** `name` is greetingName's answer: null greets without a name. */
  retentionNoticeText: (name: string | null, erasureDate: string, months: number) =>
    [
      name ? `Ciao ${name},` : 'Ciao,',
      '',
      `conserviamo i dati che ci hai lasciato per richiedere la guida gratuita per ${months} mesi. Il ${erasureDate} questo periodo finisce e li cancelleremo: nome, email, cellulare e lo storico degli invii.`,
      '',
      'Non devi fare nulla. Se vuoi ricevere di nuovo la guida in futuro, potrai richiederla dal sito.',
      ...signature,
    ].join('\n'),
} as const;

/** The "information" part of an export (art. 15 GDPR: purposes, recipients, retention). */
export const gdprExportInformation = (retentionMonths: number) => ({
  finalita:
    'Inviarti la guida gratuita che hai richiesto (link personale via SMS, in alternativa via email) e gestire la tua richiesta nel nostro CRM. Comunicazioni promozionali solo con il consenso facoltativo.',
  destinatari:
    'Il fornitore degli SMS (Twilio), il fornitore del servizio email e il nostro CRM, che trattano i dati per nostro conto; solo se avevi accettato i cookie di marketing, Meta (email e telefono in forma pseudonimizzata, come impronta SHA-256 che Meta confronta con i dati dei propri utenti; identificativo del clic, browser, pagina e momenti della richiesta e della conferma) e Google (soltanto l’identificativo del clic e quei momenti) per misurare le campagne pubblicitarie, come indicato in conversion_uploads.',
  conservazione: `I dati di ogni richiesta della guida sono conservati per ${retentionMonths} mesi e poi cancellati. La prova del consenso resta in forma pseudonimizzata.`,
  cookie:
    'Le scelte sui cookie sono legate a un identificativo casuale del browser, non al tuo indirizzo email: non possiamo collegarle a te e non compaiono qui.',
  statistiche:
    'Le statistiche di navigazione non contengono nome, email o numero di telefono e non sono collegate alla tua richiesta.',
  tabelle:
    'ebook_requests: le tue richieste della guida; gdpr_consents: i consensi dati; sms_messages e sms_events: gli SMS inviati; crm_deliveries: gli invii al CRM; conversion_uploads: le conversioni comunicate alle piattaforme pubblicitarie (Meta, Google Ads); email_messages: le email inviate; download_tokens e guide_downloads: il link alla guida e i download; gdpr_data_requests: le tue richieste sui dati; marketing_suppressions: se e quando hai revocato il consenso alle comunicazioni promozionali (lo conserviamo come impronta cifrata del tuo indirizzo email e del tuo numero, anche dopo la cancellazione dei dati, per non scriverti più).',
});
