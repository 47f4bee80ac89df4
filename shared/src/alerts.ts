import { OPERATOR_TIME_ZONE } from './analytics-rules';

/**
 * The alerts (decision 039, docs/ops/alerts.md): the kinds of incident, the measurements
 * each keeps (numbers only: no visitor text ever reaches an alert), and their Italian
 * texts, shared by the worker's email and the admin's banner. Browser-safe.
 */

export const ALERT_KINDS = [
  'sms_p95',
  'sms_failure_rate',
  'crm_failing',
  'sms_queue_promise',
  'sms_budget',
  'no_worker',
  'conversions_failing',
  'google_ads_not_fetched',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** An outside service that refuses or does not answer every delivery for a while (the CRM, Meta). */
interface FailingDetails {
  failingMinutes: number;
  thresholdMinutes: number;
  /** Deliveries refused or unanswered since the last one the service took. */
  failedDeliveries: number;
  /** The HTTP status of the latest refusal; null when the service did not answer. */
  lastHttpStatus: number | null;
}

export interface AlertDetails {
  sms_p95: { p95Seconds: number; thresholdSeconds: number; sms: number; windowMinutes: number };
  sms_failure_rate: { failed: number; finished: number; ratePercent: number; thresholdPercent: number; windowMinutes: number };
  crm_failing: FailingDetails;
  sms_queue_promise: {
    waiting: number;
    oldestWaitSeconds: number;
    sentPerMinute: number;
    /** When the queue would be empty at the current rate; null when nothing is being sent. */
    drainSeconds: number | null;
    promiseSeconds: number;
  };
  sms_budget: { held: number; trippedBudgets: number };
  /** Opened by the API from the workers' heartbeats (decision 058). */
  no_worker: {
    /** The last heartbeat of any worker; null when no worker ever wrote one. */
    lastSeenAt: string | null;
    thresholdMinutes: number;
  };
  /** The Meta Conversions API refuses or does not answer every conversion (decision 061). */
  conversions_failing: FailingDetails;
  /** Google Ads' scheduled upload has not fetched a file holding conversions for hours (decision 062). */
  google_ads_not_fetched: {
    /** The last fetch that served conversions; null when Google never fetched one. */
    lastFetchedAt: string | null;
    /** Since when the file has held a conversion no fetch has served since: that lead's creation, or the last fetch if later. */
    waitingSince: string;
    thresholdHours: number;
  };
}

export type AlertIncident = {
  [K in AlertKind]: { id: number; kind: K; openedAt: string; resolvedAt: string | null; details: AlertDetails[K] };
}[AlertKind];

/** GET /api/admin/alerts: the open incidents, oldest first, and the recently resolved ones. */
export interface AlertIncidents {
  open: AlertIncident[];
  resolved: AlertIncident[];
}

const LOCALE = 'it-IT';
const number = (value: number, digits = 0) =>
  new Intl.NumberFormat(LOCALE, { maximumFractionDigits: digits }).format(value);
const dateTime = new Intl.DateTimeFormat(LOCALE, {
  timeZone: OPERATOR_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
/** An instant as the operator reads it: "25/11/2026, 03:12 (ora italiana)". */
export const formatAlertTime = (iso: string) => `${dateTime.format(new Date(iso))} (ora italiana)`;
const minutes = (value: number) => (value === 1 ? '1 minuto' : `${number(value)} minuti`);

/** What each kind is called: the banner's heading and the email's subject. */
export const ALERT_TITLES: Record<AlertKind, string> = {
  sms_p95: 'SMS lenti',
  sms_failure_rate: 'Troppi SMS non consegnati',
  crm_failing: 'Il CRM non accetta i lead',
  sms_queue_promise: 'Coda SMS oltre la promessa dei 2 minuti',
  sms_budget: 'Budget SMS superato',
  no_worker: 'Nessun worker attivo: SMS, CRM ed email sono fermi',
  conversions_failing: 'Meta non accetta le conversioni',
  google_ads_not_fetched: 'Google Ads non scarica le conversioni',
};

/** The measurements of an incident as Italian sentences: numbers and fixed text only. */
export function alertDetailLines(incident: { [K in AlertKind]: { kind: K; details: AlertDetails[K] } }[AlertKind]): string[] {
  switch (incident.kind) {
    case 'sms_p95': {
      const d = incident.details;
      return [
        `Negli ultimi ${minutes(d.windowMinutes)}, il 95% degli SMS è partito entro ${number(d.p95Seconds, 1)} s dalla richiesta (soglia ${number(d.thresholdSeconds)} s).`,
        `SMS considerati: ${number(d.sms)}.`,
      ];
    }
    case 'sms_failure_rate': {
      const d = incident.details;
      return [
        `Negli ultimi ${minutes(d.windowMinutes)}, ${number(d.failed)} SMS su ${number(d.finished)} non sono stati consegnati (${number(d.ratePercent, 1)}%, soglia ${number(d.thresholdPercent, 1)}%).`,
      ];
    }
    case 'crm_failing': {
      const d = incident.details;
      return [
        `Da almeno ${minutes(d.failingMinutes)} il CRM rifiuta o non risponde a ogni invio (soglia ${minutes(d.thresholdMinutes)}).`,
        `Invii non riusciti dall'ultimo accettato: ${number(d.failedDeliveries)}.`,
        d.lastHttpStatus === null ? 'Ultima risposta: nessuna (CRM non raggiungibile).' : `Ultima risposta: HTTP ${d.lastHttpStatus}.`,
      ];
    }
    case 'sms_queue_promise': {
      const d = incident.details;
      return [
        `SMS in attesa: ${number(d.waiting)}; il più vecchio attende da ${number(d.oldestWaitSeconds)} s (promessa: ${number(d.promiseSeconds)} s).`,
        d.drainSeconds === null
          ? "Nell'ultimo minuto non è partito nessun SMS."
          : `Ritmo attuale: ${number(d.sentPerMinute)} SMS al minuto; la coda si svuoterebbe in ${number(d.drainSeconds)} s.`,
      ];
    }
    case 'sms_budget': {
      const d = incident.details;
      return [
        `SMS trattenuti dal budget: ${number(d.held)}.`,
        `Budget al limite: ${number(d.trippedBudgets)}. Gli SMS trattenuti si possono rilasciare dall'area amministrazione.`,
      ];
    }
    case 'no_worker': {
      const d = incident.details;
      return [
        d.lastSeenAt === null
          ? `Nessun worker ha mai segnalato la propria attività (soglia ${minutes(d.thresholdMinutes)}).`
          : `Ultimo segnale di un worker: ${formatAlertTime(d.lastSeenAt)} (soglia ${minutes(d.thresholdMinutes)}).`,
        'I lead vengono registrati, ma SMS, invii al CRM, email e gli altri avvisi restano in attesa finché un worker non riparte.',
      ];
    }
    case 'conversions_failing': {
      const d = incident.details;
      return [
        `Da almeno ${minutes(d.failingMinutes)} la Conversions API di Meta rifiuta o non risponde a ogni conversione (soglia ${minutes(d.thresholdMinutes)}).`,
        `Conversioni non riuscite dall'ultima accettata: ${number(d.failedDeliveries)}.`,
        d.lastHttpStatus === null ? 'Ultima risposta: nessuna (Meta non raggiungibile).' : `Ultima risposta: HTTP ${d.lastHttpStatus}.`,
        'I lead e i loro SMS non ne risentono; i dettagli di ogni conversione sono nella scheda del lead.',
      ];
    }
    case 'google_ads_not_fetched': {
      const d = incident.details;
      return [
        d.lastFetchedAt === null
          ? `Google Ads non ha mai scaricato il file delle conversioni (soglia ${number(d.thresholdHours)} ore).`
          : `Ultimo scaricamento del file delle conversioni da parte di Google Ads: ${formatAlertTime(d.lastFetchedAt)} (soglia ${number(d.thresholdHours)} ore).`,
        `Il file contiene conversioni che Google Ads non ha scaricato dal ${formatAlertTime(d.waitingSince)}.`,
        'Controlla in Google Ads la pianificazione del caricamento (Obiettivi, Conversioni, Caricamenti) e che nome utente e password siano quelli configurati: i tentativi rifiutati non vengono registrati qui. I lead e i loro SMS non ne risentono.',
      ];
    }
  }
}

export const alertTexts = {
  bannerTitle: 'Avvisi aperti',
  since: 'Aperto il',
  resolvedTitle: 'Avvisi risolti di recente',
  resolvedAt: 'Risolto il',
  emailOpenedSubject: (kind: AlertKind) => `[Avviso] ${ALERT_TITLES[kind]}`,
  emailResolvedSubject: (kind: AlertKind) => `[Risolto] ${ALERT_TITLES[kind]}`,
  emailOpenedIntro: 'Si è aperto un avviso:',
  emailResolvedIntro: 'Questo avviso si è risolto:',
  emailLastMeasures: 'Ultime misure:',
  emailAdminLink: 'Area amministrazione:',
  emailFooter: 'Messaggio automatico: riceverai un altro messaggio quando l’avviso si risolve.',
} as const;
