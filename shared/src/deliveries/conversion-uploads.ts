import type { Knex } from 'knex';
import type { ConversionEvent, ConversionPlatform } from '../jobs/conversions';
import { adConversionConsentSql } from '../server/ad-conversion-consent';
import { isVerifiedSql, verifiedAtSql } from '../server/verified-lead-sql';
import { CONVERSION_TRANSITIONS, type DeliveryStatus } from './delivery-statuses';
import {
  applyTransition,
  applyTransitionOrRefuse,
  claimRow,
  dueRows,
  isClaimable,
  isTakeOver,
  statusOf,
  type DueOptions,
} from './delivery-table';

/**
 * conversion_uploads (decision 061): every write to it but Google Ads' fetches, recorded by
 * google-ads-fetches.ts (decision 062). A Meta `lead` upload is created
 * with the lead (api/src/leads/leads.repo.ts, `insertLeadConversionSql`), in the lead's
 * own statement; a `verified_lead` upload by the conversions sweep once the lead is
 * verified (`createVerifiedConversionUploads`). Both only for a lead whose data may go to
 * the platform (shared/src/server/ad-conversion-consent.ts).
 */

const TABLE = 'conversion_uploads';

/** The id Meta deduplicates an event by (and a browser pixel would use for the same event). */
const EVENT_ID_SUFFIX: Record<ConversionEvent, string> = { lead: '', verified_lead: '-verified' };
export const conversionEventId = (leadId: number, event: ConversionEvent) => `lead-${leadId}${EVENT_ID_SUFFIX[event]}`;
/** conversionEventId in SQL, for the lead id expression `leadId` (an expression of ours, never input). */
const eventIdSql = (leadId: string, event: ConversionEvent) => `'lead-' || ${leadId} || '${EVENT_ID_SUFFIX[event]}'`;

/** Why an upload is not sent, as the admin reads it (the last_error of a skipped upload). */
export const CONVERSION_SKIP_REASONS = {
  notConfigured: 'Meta Conversions API non configurata (META_PIXEL_ID e META_CAPI_ACCESS_TOKEN)',
  erased: 'Lead cancellato: nessun dato inviato',
  withdrawn: 'Consenso marketing revocato: nessun dato inviato',
  noConsent: 'Consenso pubblicitario assente o revocato, o contatto nella lista di soppressione: nessun dato inviato',
  notVerified: 'Lead non verificato',
  tooOld: 'Evento più vecchio di 7 giorni: Meta non lo accetta più',
} as const;

export interface ConversionUpload {
  id: number;
  lead_id: number | null;
  subject_lead_id: number;
  platform: ConversionPlatform;
  event: ConversionEvent;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: Date;
}

/**
 * SQL for the lead intake statement: a CTE body inserting the Meta `lead` upload of each
 * row of the CTE `leadCte` (columns `id`, `repeat_of`, `ad_user_data`, `marketing_consent_withdrawn_at`)
 * that the consent rule allows and that is not a repeat (the same phone within 24 hours is
 * the same person: one conversion, as in Google's file); returns `id` and `lead_id`.
 * `metaOn` is an SQL boolean (a parameter): false while the Meta Conversions API is off,
 * so nothing is stored that the worker would only skip.
 */
export const insertLeadConversionSql = (leadCte: string, metaOn: string) => `
INSERT INTO ${TABLE} (lead_id, subject_lead_id, platform, event, event_id)
SELECT ${leadCte}.id, ${leadCte}.id, 'meta', 'lead', ${eventIdSql(`${leadCte}.id`, 'lead')}
FROM ${leadCte} WHERE ${metaOn} AND ${leadCte}.repeat_of IS NULL AND ${adConversionConsentSql(leadCte)}
RETURNING id, lead_id`;

/**
 * The `verified_lead` upload of each lead verified (its SMS delivered or its guide
 * downloaded, LEAST(reachable_at, engaged_at)) within the last `windowMs` whose data may
 * go to the platform and that has none yet; at most `limit`, earliest verified first. The
 * window is the platform's: an older event would be refused. Returns the new rows' ids.
 */
export async function createVerifiedConversionUploads(
  db: Knex,
  platform: ConversionPlatform,
  options: { windowMs: number; limit: number },
) {
  const { rows } = await db.raw<{ rows: { id: number }[] }>(
    `INSERT INTO ${TABLE} (lead_id, subject_lead_id, platform, event, event_id)
     SELECT l.id, l.id, :platform, 'verified_lead', ${eventIdSql('l.id', 'verified_lead')}
     FROM ebook_requests l
     WHERE ${isVerifiedSql('l')}
       AND ${verifiedAtSql('l')} > now() - make_interval(secs => :windowSeconds)
       AND l.repeat_of IS NULL
       AND ${adConversionConsentSql('l')}
       AND NOT EXISTS (
         SELECT 1 FROM ${TABLE} u WHERE u.subject_lead_id = l.id AND u.platform = :platform AND u.event = 'verified_lead'
       )
     ORDER BY ${verifiedAtSql('l')}
     LIMIT :limit
     ON CONFLICT (subject_lead_id, platform, event) DO NOTHING
     RETURNING id`,
    { platform, windowSeconds: options.windowMs / 1000, limit: options.limit },
  );
  return rows.map((row) => row.id);
}

export const loadConversionUpload = (db: Knex, uploadId: number) =>
  db(TABLE)
    .where({ id: uploadId })
    .first<ConversionUpload | undefined>('id', 'lead_id', 'subject_lead_id', 'platform', 'event', 'event_id', 'status', 'attempts', 'created_at');

export const conversionUploadStatus = (db: Knex, uploadId: number) => statusOf<DeliveryStatus>(db, TABLE, uploadId);

/** True when a worker may try the upload: claim it, or take over a claim. */
export const conversionUploadIsClaimable = (status: DeliveryStatus) => isClaimable(CONVERSION_TRANSITIONS, status);

/**
 * Takes the upload (`sending`) before posting; null when another run took it first, or
 * it was sent or given up meanwhile. A claim older than `claimTimeoutMs` is taken over:
 * the platform may get the event twice, with the same event_id to drop the repeat by.
 */
export const claimConversionUpload = (
  db: Knex,
  upload: { id: number; status: DeliveryStatus },
  attempts: number,
  claimTimeoutMs: number,
) => claimRow(db, TABLE, CONVERSION_TRANSITIONS, upload, { attempts }, claimTimeoutMs);

/** What the platform answered, in short and without personal data. */
export interface ConversionResponse {
  responseStatus: number | null;
  responseSummary: string | null;
}

export const recordConversionDelivered = (db: Knex, uploadId: number, outcome: ConversionResponse & { attempts: number }) =>
  applyTransition(db, TABLE, uploadId, CONVERSION_TRANSITIONS.recordDelivered, {
    attempts: outcome.attempts,
    response_status: outcome.responseStatus,
    response_summary: outcome.responseSummary,
    last_error: null,
    sent_at: db.fn.now(),
  });

/** The platform refused the event or could not be reached: retried later, or given up (`final`). */
export const recordConversionFailure = (
  db: Knex,
  uploadId: number,
  failure: ConversionResponse & { final: boolean; attempts: number; error: string },
) =>
  applyTransition(db, TABLE, uploadId, failure.final ? CONVERSION_TRANSITIONS.recordFailure : CONVERSION_TRANSITIONS.recordRetry, {
    attempts: failure.attempts,
    response_status: failure.responseStatus,
    response_summary: failure.responseSummary,
    last_error: failure.error,
  });

/**
 * Nothing goes out for the upload its worker claimed; `reason` is shown to the admin
 * (Italian). A skip is no attempt: the attempts go back to what they were before the claim.
 */
export const skipConversionUpload = (db: Knex, upload: { id: number; attempts: number }, reason: string) =>
  applyTransition(db, TABLE, upload.id, CONVERSION_TRANSITIONS.skip, { attempts: upload.attempts, last_error: reason });

/**
 * The uploads of these leads not yet sent are skipped, in the caller's transaction: a
 * withdrawal of the marketing consent, or an erasure (before the leads are deleted). A
 * claimed upload too: its worker checks the consent only after its claim, so one that has
 * not checked yet sees the withdrawal, one that stopped leaves nothing to take over, and
 * a post already on its way can no longer be recorded as delivered.
 */
export function skipUnsentConversionUploads(trx: Knex.Transaction, leadIds: number[], reason: string) {
  if (leadIds.length === 0) return Promise.resolve(0);
  const settle = CONVERSION_TRANSITIONS.settleForWithdrawal;
  return trx(TABLE)
    .whereIn('lead_id', leadIds)
    .whereIn('status', settle.from)
    .update({ status: settle.to, last_error: reason, updated_at: trx.fn.now() });
}

/** The admin's retry of a failed job: the upload must have failed (else DeliveryTransitionError). */
export const retryFailedConversionUpload = (db: Knex, uploadId: number) =>
  applyTransitionOrRefuse(db, 'conversion', 'retry', TABLE, uploadId, CONVERSION_TRANSITIONS.retryFailed);

/** Uploads of `platform` a worker should run now (see dueRows). */
export async function listConversionsDue(db: Knex, platform: ConversionPlatform, options: DueOptions) {
  const rows = await dueRows(db, TABLE, CONVERSION_TRANSITIONS.claim.from, CONVERSION_TRANSITIONS.takeOver.from, options)
    .where({ platform })
    .select<{ id: number; status: DeliveryStatus }[]>('id', 'status');
  return rows.map((row) => ({ uploadId: row.id, abandoned: isTakeOver(CONVERSION_TRANSITIONS, row.status) }));
}

/** A lead's uploads, for the admin's lead detail: every platform, in the order they were created. */
export function conversionUploadsOfLead(db: Knex, leadId: number) {
  return db(TABLE)
    .where({ lead_id: leadId })
    .orderBy('id')
    .select<
      {
        id: number;
        platform: ConversionPlatform;
        event: ConversionEvent;
        event_id: string;
        status: DeliveryStatus;
        attempts: number;
        response_status: number | null;
        response_summary: string | null;
        last_error: string | null;
        created_at: Date;
        updated_at: Date;
        sent_at: Date | null;
      }[]
    >('id', 'platform', 'event', 'event_id', 'status', 'attempts', 'response_status', 'response_summary', 'last_error', 'created_at', 'updated_at', 'sent_at');
}
