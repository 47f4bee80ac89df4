import { OPERATOR_TIME_ZONE } from '@guida/shared/analytics-rules';

const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: OPERATOR_TIME_ZONE, timeZoneName: 'longOffset' });
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: OPERATOR_TIME_ZONE });

/** Minutes the operator's clock is ahead of UTC at that instant ("GMT+01:00" → 60). */
function offsetMinutesAt(instant: number) {
  const name = offsetFormat.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** Midnight of an operator's day (YYYY-MM-DD) as an instant. Italy changes clocks at 2-3 am, never at midnight. */
export function startOfOperatorDay(day: string): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  return new Date(utcMidnight - offsetMinutesAt(utcMidnight) * 60_000);
}

export const operatorDay = (instant: Date) => dayFormat.format(instant);

/** Calendar arithmetic on YYYY-MM-DD. */
export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The instants of a report's day range, both days included; the last 30 days up to
 * today when not given.
 */
export function reportRange(range: { from?: string | undefined; to?: string | undefined }, now = new Date()) {
  const toDay = range.to ?? operatorDay(now);
  const fromDay = range.from ?? operatorDay(new Date(startOfOperatorDay(toDay).getTime() - (DEFAULT_DAYS - 1) * DAY_MS + DAY_MS / 2));
  const nextDay = operatorDay(new Date(startOfOperatorDay(toDay).getTime() + DAY_MS + DAY_MS / 2));
  return { from: startOfOperatorDay(fromDay), to: startOfOperatorDay(nextDay) };
}
