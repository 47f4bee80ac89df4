import { DIRECT_SOURCE, OPERATOR_TIME_ZONE } from '@guida/shared/analytics-rules';
import type { DeliveryStatus, SmsStatus } from '@guida/shared/deliveries/delivery-statuses';
import type { AdConsentState } from '@guida/shared/cookie-consent-rules';
import type { EbookType } from '@guida/shared/lead-rules';
import { TOUCH_COLUMNS, type Touch, type TouchField } from '@guida/shared/attribution-rules';
import { experimentOfPath } from '@guida/shared/experiments';

/** Italian formats and labels of the admin pages (dates in the company's time zone). */

const LOCALE = 'it-IT';

const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'short', timeStyle: 'medium', timeZone: OPERATOR_TIME_ZONE });
const clockFormat = new Intl.DateTimeFormat(LOCALE, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: OPERATOR_TIME_ZONE,
});
// Report days are calendar days already, so no time zone shift may apply to them.
const dayFormat = new Intl.DateTimeFormat(LOCALE, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
const integerFormat = new Intl.NumberFormat(LOCALE);
const decimalFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });
const percentFormats = [0, 1].map(
  (digits) => new Intl.NumberFormat(LOCALE, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }),
);

export const EMPTY_VALUE = '—';

export function formatDateTime(iso: string | null) {
  return iso ? dateTimeFormat.format(new Date(iso)) : EMPTY_VALUE;
}

/** HH:MM:SS of a timestamp in milliseconds. */
export function formatClock(timestamp: number) {
  return clockFormat.format(timestamp);
}

/** A YYYY-MM-DD day as DD/MM/YYYY. */
export function formatDay(day: string) {
  const [year, month, date] = day.split('-').map(Number);
  if (year === undefined || month === undefined || date === undefined) return day;
  return dayFormat.format(Date.UTC(year, month - 1, date));
}

export function formatNumber(value: number) {
  return integerFormat.format(value);
}

export function formatDecimal(value: number) {
  return decimalFormat.format(value);
}

/** A share (0.123) as a percentage ("12,3 %"), with `digits` decimals. */
export function formatShare(share: number, digits: 0 | 1 = 1) {
  return percentFormats[digits]!.format(share);
}

/** `part` as a percentage of `whole`, one decimal; a dash when there is no whole. */
export function formatPercent(part: number, whole: number) {
  return whole > 0 ? formatShare(part / whole) : EMPTY_VALUE;
}

export function formatSeconds(seconds: number) {
  return `${decimalFormat.format(seconds)} s`;
}

/** A duration as "1 h 5 min", "2 min 30 s" or "45 s". */
export function formatDuration(seconds: number) {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return rest > 0 ? `${minutes} min ${rest} s` : `${minutes} min`;
  return `${rest} s`;
}

/** A value's label; the raw value when it has none, so a value added on the server still shows. */
export const labelOf = (labels: Readonly<Record<string, string>>, value: string | null) =>
  value === null ? EMPTY_VALUE : (labels[value] ?? value);

const STATUS_LABELS: Record<SmsStatus | DeliveryStatus, string> = {
  pending: 'In attesa',
  held: 'Trattenuto (budget SMS)',
  retrying: 'Nuovo tentativo',
  sending: 'In invio',
  sent: 'Inviato',
  delivered: 'Consegnato',
  undelivered: 'Non consegnato',
  failed: 'Fallito',
  skipped: 'Saltato',
};
export const statusLabel = (status: string | null) => labelOf(STATUS_LABELS, status);

export type StatusTone = 'success' | 'danger' | 'neutral';
const STATUS_TONES: Partial<Record<SmsStatus | DeliveryStatus, StatusTone>> = {
  sent: 'success',
  delivered: 'success',
  undelivered: 'danger',
  failed: 'danger',
  held: 'danger',
};
export const statusTone = (status: string | null): StatusTone =>
  (status === null ? undefined : (STATUS_TONES as Record<string, StatusTone>)[status]) ?? 'neutral';

export const GUIDE_LABELS: Record<EbookType, string> = {
  general: 'Guida generale',
  'financial-education': 'Educazione finanziaria',
  'investment-education': 'Educazione agli investimenti',
};
export const guideLabel = (ebookType: string) => labelOf(GUIDE_LABELS, ebookType);

export const COUNTRY_LABELS = { IT: 'Italia', CH: 'Svizzera' } as const;
export const countryLabel = (country: string | null) => labelOf(COUNTRY_LABELS, country);

const QUEUE_LABELS: Record<string, string> = { sms: 'SMS', crm: 'CRM', email: 'Email', maintenance: 'Manutenzione', gdpr: 'Diritti GDPR', alerts: 'Avvisi', conversions: 'Conversioni (Meta)', 'sms-price': 'Prezzi SMS' };
export const queueLabel = (name: string) => labelOf(QUEUE_LABELS, name);

/**
 * The provider's error codes an operator meets most (Twilio's numbering), in Italian;
 * any other code shows as it is, with the provider's message beside it.
 */
const SMS_ERROR_LABELS: Record<string, string> = {
  '21211': 'Numero di telefono non valido',
  '21408': 'Invio verso questo Paese non abilitato',
  '21610': 'Il destinatario ha bloccato gli SMS (STOP)',
  '21612': 'Numero non raggiungibile da questo mittente',
  '21614': 'Il numero non è un cellulare',
  '30001': 'Coda del provider piena',
  '30002': 'Account del provider sospeso',
  '30003': 'Telefono irraggiungibile (spento o senza campo)',
  '30004': 'Messaggio bloccato dal destinatario',
  '30005': 'Numero sconosciuto o inesistente',
  '30006': 'Numero fisso o operatore non raggiungibile',
  '30007': 'Filtrato dall’operatore come spam',
  '30008': 'Errore sconosciuto dell’operatore',
};
export function smsErrorLabel(code: string | null) {
  if (code === null) return 'Nessun codice di errore';
  const http = /^http-(\d{3})$/.exec(code);
  if (http) return `Errore HTTP ${http[1]} del provider`;
  return SMS_ERROR_LABELS[code] ?? `Codice ${code}`;
}

export const yesNo = (value: boolean) => (value ? 'Sì' : 'No');

const moneyFormats = new Map<string, Intl.NumberFormat>();
/** An amount in its currency, Italian style ("1.234,56 €"), with up to `digits` decimals (at least 2). */
export function formatMoney({ currency, amount }: { currency: string; amount: number }, digits = 2) {
  const key = `${currency}:${digits}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: Math.max(2, digits) });
    moneyFormats.set(key, format);
  }
  return format.format(amount);
}

/** Amounts in several currencies side by side, never added together ("12,00 € + 0,05 USD"); a dash for none. */
export const formatMoneyList = (amounts: readonly { currency: string; amount: number }[], digits = 2) =>
  amounts.length > 0 ? amounts.map((amount) => formatMoney(amount, digits)).join(' + ') : EMPTY_VALUE;

/** What Twilio billed for a lead's SMS, every message of it (decision 060); why there is no price when there is none. */
export function smsPriceText(sms: {
  provider: string | null;
  prices: readonly { currency: string; amount: string }[];
  pricesPending: number;
  pricesGivenUp: number;
}) {
  if (sms.prices.length > 0) {
    const cost = formatMoneyList(sms.prices.map(({ currency, amount }) => ({ currency, amount: Number(amount) })), 5);
    return sms.pricesPending > 0 ? `${cost} (${formatNumber(sms.pricesPending)} in attesa del prezzo)` : cost;
  }
  if (sms.pricesPending > 0) return 'In attesa del prezzo da Twilio';
  if (sms.pricesGivenUp > 0) return 'Non comunicato da Twilio';
  return sms.provider === 'twilio' ? 'In attesa del prezzo da Twilio' : EMPTY_VALUE;
}

/** A Consent Mode v2 state in Italian, with Google's value beside it (decision 049). */
export const adConsentLabel = (state: AdConsentState) => (state === 'granted' ? 'Concesso (granted)' : 'Negato (denied)');

/** A touch's fields by the names operators use in their ads' URLs. */
export const TOUCH_LABELS: Record<TouchField, string> = { ...TOUCH_COLUMNS, referrerHost: 'Sito di provenienza' };

/** The ad platforms whose click ids a touch carries ("Google Ads, Meta"), or null. */
export function clickPlatforms(touch: Touch): string | null {
  const platforms = [
    (touch.gclid ?? touch.gbraid ?? touch.wbraid) !== null ? 'Google Ads' : null,
    touch.fbclid !== null ? 'Meta' : null,
    touch.msclkid !== null ? 'Microsoft Ads' : null,
    touch.ttclid !== null ? 'TikTok' : null,
  ].filter((name) => name !== null);
  return platforms.length > 0 ? platforms.join(', ') : null;
}

/** A campaign's utm_source as the funnel names it: "(direct)" is a visit without campaign. */
export const sourceLabel = (utmSource: string) => (utmSource === DIRECT_SOURCE ? 'Diretto (nessuna campagna)' : utmSource);

/** The operator's label of a hero variant shown on a page (decision 041), or its id if unknown. */
export function variantLabel(landingPath: string | null, variantId: string | null) {
  if (!variantId) return EMPTY_VALUE;
  return experimentOfPath(landingPath)?.variants.find((variant) => variant.id === variantId)?.label ?? variantId;
}

/** A funnel row's campaign in one line: "google / cpc / autunno · term: x · content: y". */
export function campaignText(row: { utmSource: string; utmMedium: string; utmCampaign: string; utmTerm: string; utmContent: string }) {
  const name = row.utmSource === DIRECT_SOURCE && !row.utmMedium && !row.utmCampaign
    ? sourceLabel(row.utmSource)
    : [row.utmSource, row.utmMedium, row.utmCampaign].filter(Boolean).join(' / ');
  return [name, row.utmTerm ? `term: ${row.utmTerm}` : '', row.utmContent ? `content: ${row.utmContent}` : '']
    .filter(Boolean)
    .join(' · ');
}
