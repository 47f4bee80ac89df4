import type { Knex } from 'knex';
import { cookieConsentText } from '@guida/shared/consent-texts';
import { COOKIE_CONSENT_VERSION } from '@guida/shared/cookie-consent-rules';
import { COOKIE_CONSENT_VALIDITY_DAYS, type CookieFlags } from '@guida/shared/schemas/cookie-consent';
import { sha256Hex } from '@guida/shared/server/personal-data-hash';

/** Which banner and panel texts the visitor chose on (recorded versions: consent-texts.ts). */
const COOKIE_CONSENT_TEXT_HASH = sha256Hex(cookieConsentText);

/** The latest choice of a visitor, if it is still valid (six months). */
export function latestCookieChoice(db: Knex, sessionId: string) {
  return db('cookie_consents')
    .where({ session_id: sessionId })
    .where('consent_timestamp', '>', db.raw('now() - make_interval(days => ?)', [COOKIE_CONSENT_VALIDITY_DAYS]))
    .orderBy('consent_timestamp', 'desc')
    .orderBy('id', 'desc')
    .first<CookieFlags | undefined>('essential', 'analytics', 'marketing', 'preferences');
}

/**
 * SQL for whether the latest still-valid choice (latestCookieChoice's rule) of the session id
 * that `sessionIdSql` gives accepts marketing: true or false, null for an id without one.
 * For a statement that reads it in place: the lead's insert (decision 049).
 */
export const marketingChoiceSql = (sessionIdSql: string) => `(
  SELECT c.marketing FROM cookie_consents c
  WHERE c.session_id = ${sessionIdSql}
    AND c.consent_timestamp > now() - make_interval(days => ${COOKIE_CONSENT_VALIDITY_DAYS})
  ORDER BY c.consent_timestamp DESC, c.id DESC
  LIMIT 1
)`;

/**
 * Append-only (a trigger refuses changes to a stored choice): every choice is a new row
 * with the version and hash of the texts shown, and the history is the proof.
 */
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
    consent_version: COOKIE_CONSENT_VERSION,
    consent_text_hash: COOKIE_CONSENT_TEXT_HASH,
  });
}
