import type { Knex } from 'knex';
import { COOKIE_CONSENT_VALIDITY_DAYS, type CookieFlags } from '@guida/shared/schemas/cookie-consent';

/** The latest choice of a visitor, if it is still valid (six months). */
export function latestCookieChoice(db: Knex, sessionId: string) {
  return db('cookie_consents')
    .where({ session_id: sessionId })
    .where('consent_timestamp', '>', db.raw('now() - make_interval(days => ?)', [COOKIE_CONSENT_VALIDITY_DAYS]))
    .orderBy('consent_timestamp', 'desc')
    .orderBy('id', 'desc')
    .first<CookieFlags | undefined>('essential', 'analytics', 'marketing', 'preferences');
}

/** Append-only: every choice is a new row, the history is the proof. */
export async function recordCookieChoice(
  db: Knex,
  choice: CookieFlags & { sessionId: string; ipAddress: string | null; userAgent: string | null },
) {
  await db('cookie_consents').insert({
    session_id: choice.sessionId,
    essential: true,
    analytics: choice.analytics,
    marketing: choice.marketing,
    preferences: choice.preferences,
    ip_address: choice.ipAddress,
    user_agent: choice.userAgent,
  });
}
