/**
 * Withdrawing the marketing consent (GDPR art. 7(3), decision 048): the link every email
 * to a lead carries, the Italian texts of that email's footer and of the pages behind the
 * link, and the admin's answers. Read by the API and the worker.
 */

/** What the suppression list keys: an email address, a phone number. */
export const CONTACT_KINDS = ['email', 'phone'] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

/** How the latest withdrawal came: the link of an email (its page or the mail client), or an admin. */
export const WITHDRAWAL_SOURCES = ['email', 'admin'] as const;
export type WithdrawalSource = (typeof WITHDRAWAL_SOURCES)[number];

/** GET shows a one-button page; POST withdraws (the page's button, and RFC 8058 one-click). */
export const MARKETING_WITHDRAWAL_PATH = '/revoca-marketing';

export const marketingWithdrawalUrl = (publicBaseUrl: string, token: string) =>
  `${publicBaseUrl}${MARKETING_WITHDRAWAL_PATH}/${token}`;

/** The RFC 8058 headers of every email to a lead, so mail clients offer their own button. */
export const listUnsubscribeHeaders = (link: string) => ({
  'List-Unsubscribe': `<${link}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

/** Appended to every email to a lead. */
export const marketingWithdrawalFooter = (link: string) =>
  [
    '',
    '',
    'Non vuoi ricevere da noi comunicazioni informative e promozionali? Revoca il consenso con un clic, senza accedere:',
    link,
  ].join('\n');

const home = { href: '/', label: 'Torna al sito' };

/** The pages behind the link (server-rendered, api/src/http/html-page.ts). */
export const marketingWithdrawalPages = {
  confirmTitle: 'Revoca del consenso al marketing',
  confirmText:
    'Con il pulsante qui sotto revochi il consenso a ricevere da noi comunicazioni informative e promozionali, via email e via SMS, all’indirizzo email e al numero di telefono con cui hai richiesto la guida.',
  confirmNote:
    'Continuerai a ricevere soltanto i messaggi legati alla tua richiesta: il link alla guida e gli avvisi sui tuoi dati personali.',
  confirmButton: 'Revoca il consenso',
  withdrawnTitle: 'Consenso al marketing revocato',
  withdrawnText: 'Fatto: non ti invieremo più comunicazioni informative e promozionali, né via email né via SMS.',
  withdrawnNote:
    'Per ricordarcene anche dopo la cancellazione dei tuoi dati conserviamo soltanto un’impronta cifrata del tuo indirizzo email e del tuo numero di telefono, non l’indirizzo né il numero.',
  alreadyTitle: 'Consenso al marketing già revocato',
  alreadyText: 'Il tuo consenso alle comunicazioni informative e promozionali risulta già revocato: non devi fare altro.',
  invalidTitle: 'Link non valido',
  invalidText:
    'Il link che hai aperto non è valido. Controlla di averlo copiato per intero dall’email che ti abbiamo inviato.',
  expiredTitle: 'Link scaduto',
  expiredText:
    'Questo link è scaduto: i dati della richiesta a cui si riferiva hanno raggiunto il periodo di conservazione. Se ricevi ancora nostre comunicazioni promozionali, usa il link dell’ultima email che ti abbiamo inviato o scrivici ai contatti indicati nell’informativa sulla privacy.',
  tooManyTitle: 'Troppe richieste',
  tooManyText: 'Questo link è stato aperto troppe volte in poco tempo. Riprova tra qualche minuto.',
  home,
  privacy: { href: '/privacy', label: 'Leggi l’informativa sulla privacy' },
} as const;

/** The admin's answers to "Revoca il consenso marketing". */
export const marketingWithdrawalMessages = {
  withdrawn: 'Consenso marketing revocato: email e telefono sono nella lista di soppressione e il CRM ne viene informato.',
  alreadyWithdrawn: 'Il consenso marketing di questa persona era già revocato.',
} as const;
