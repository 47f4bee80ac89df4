/**
 * Italian texts of the data-protection requests shown on the site: the /gdpr form and the
 * admin answers (the spec's validation messages stay in messages.ts; the emails and the
 * pages behind the emailed links are in gdpr-server-texts.ts).
 */
import { GDPR_TEXT_MAX_LENGTH } from './gdpr-rules';

export const gdprFormTexts = {
  emailLabel: 'Email',
  emailHint: 'L’indirizzo con cui hai richiesto la guida.',
  typeLabel: 'Tipo di richiesta',
  typePlaceholder: 'Scegli il tipo di richiesta',
  detailsLabel: 'Che cosa dobbiamo correggere? (facoltativo)',
  detailsHint: 'Per esempio: il cognome corretto è “Rossi”, non “Rosi”. Non scrivere dati sensibili.',
  submit: 'Invia la richiesta',
  successTitle: 'Richiesta ricevuta',
  successNext:
    'Apri il link che trovi nell’email per confermare la richiesta: il link ha una scadenza. Se non vedi l’email, controlla anche la cartella spam.',
  another: 'Invia un’altra richiesta',
} as const;

export const gdprMessages = {
  /** The one answer to every valid request, known address or not. */
  requestReceived:
    'Richiesta ricevuta. Se l’indirizzo è corretto riceverai a breve un’email con un link per confermarla: senza la tua conferma non procediamo.',
  detailsTooLong: `Il testo può contenere al massimo ${GDPR_TEXT_MAX_LENGTH} caratteri`,
  notesTooLong: `Le note possono contenere al massimo ${GDPR_TEXT_MAX_LENGTH} caratteri`,
  actionInvalid: 'Scegli se completare o respingere la richiesta',
} as const;

/** Answers of the admin's data-request actions. */
export const gdprAdminMessages = {
  requestNotFound: 'Richiesta non trovata.',
  notConfirmed: 'Il richiedente non ha ancora confermato la richiesta: non si può gestire.',
  alreadyHandled: 'La richiesta è già stata gestita.',
  rejected: 'Richiesta respinta: il richiedente riceverà un’email con il motivo.',
  processing: {
    access: 'Richiesta presa in carico: l’esportazione dei dati parte a breve e il link arriverà via email.',
    portability: 'Richiesta presa in carico: l’esportazione dei dati parte a breve e il link arriverà via email.',
    deletion: 'Richiesta presa in carico: la cancellazione dei dati parte a breve.',
    rectification: 'Richiesta completata: il richiedente riceverà la conferma via email.',
  },
  rectified: 'Dati del lead corretti: il CRM riceverà l’aggiornamento.',
  nothingChanged: 'Nessun dato è cambiato: non c’era niente da correggere.',
} as const;
