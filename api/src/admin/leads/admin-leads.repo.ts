import type { Knex } from 'knex';
import { DIRECT_SOURCE, OPERATOR_TIME_ZONE } from '@guida/shared/analytics-rules';
import { ATTRIBUTION_COLUMNS, FIRST_TOUCH_PREFIX, TOUCH_COLUMNS, touchOfRow } from '@guida/shared/attribution-rules';
import type { AdConsentState } from '@guida/shared/cookie-consent-rules';
import type { LeadDetail, LeadFilters, LeadOrder, LeadSummary } from '@guida/shared/schemas/admin';
import {
  campaignSourceFilter,
  hasAdClickIdSql,
  isDirectSource,
  isDirectSourceSql,
} from '@guida/shared/server/campaign-source-sql';
import { suppressionsOf, type LeadSuppression } from '@guida/shared/server/marketing-suppression';
import { conversionUploadsOfLead } from '@guida/shared/deliveries/conversion-uploads';
import { smsPriceSummary } from '@guida/shared/deliveries/sms-prices';
import { isEngagedSql, isReachableSql, isVerifiedSql } from '@guida/shared/server/verified-lead-sql';


const SUMMARY_COLUMNS = [
  'l.id',
  'l.created_at',
  'l.nome',
  'l.cognome',
  'l.email',
  'l.telefono',
  'l.country',
  'l.ebook_type',
  'l.source',
  'l.landing_path',
  'l.hero_variant',
  ...ATTRIBUTION_COLUMNS.map((column) => `l.${column}`),
  's.status as sms_status',
  'c.status as crm_status',
  'l.reachable_at',
  'l.engaged_at',
];

interface SummaryRow {
  id: number;
  created_at: Date;
  nome: string;
  cognome: string;
  email: string;
  telefono: string;
  country: string | null;
  ebook_type: string;
  source: string;
  landing_path: string | null;
  hero_variant: string | null;
  /** The attribution columns (ATTRIBUTION_COLUMNS), read by touchOfRow. */
  [attribution: string]: unknown;
  sms_status: string | null;
  crm_status: string | null;
  reachable_at: Date | null;
  engaged_at: Date | null;
}

const FIRST_UTM_SOURCE = `${FIRST_TOUCH_PREFIX}${TOUCH_COLUMNS.utmSource}`;
const shownSource = (value: unknown) => (typeof value === 'string' && !isDirectSource(value) ? value : null);

/**
 * A lead without campaign reads the same whether stored before the default (NULL) or with
 * it ('direct'): no utm_source, in the list, the detail and the CSV, for both touches.
 */
function withDirectAsNone<T extends SummaryRow>(row: T): T {
  return { ...row, utm_source: shownSource(row.utm_source), [FIRST_UTM_SOURCE]: shownSource(row[FIRST_UTM_SOURCE]) };
}

export function toSummary(stored: SummaryRow, suppression: LeadSuppression | undefined): LeadSummary {
  const row = withDirectAsNone(stored);
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    nome: row.nome,
    cognome: row.cognome,
    email: row.email,
    telefono: row.telefono,
    country: row.country,
    ebookType: row.ebook_type,
    source: row.source,
    landingPath: row.landing_path,
    heroVariant: row.hero_variant,
    ...touchOfRow(row),
    firstTouch: touchOfRow(row, FIRST_TOUCH_PREFIX),
    smsStatus: row.sms_status,
    crmStatus: row.crm_status,
    reachableAt: row.reachable_at?.toISOString() ?? null,
    engagedAt: row.engaged_at?.toISOString() ?? null,
    marketingSuppressedAt: suppression?.suppressedAt.toISOString() ?? null,
  };
}

/** Filters on the last touch (the columns named like the parameters). */
const TEXT_TOUCH_FILTERS = ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent', 'referrerHost'] as const;
/** The yes/no filters on a condition of the lead: `si` selects the leads where it holds. */
const YES_NO_FILTERS = {
  clickId: hasAdClickIdSql('l'),
  verified: isVerifiedSql('l'),
  reachable: isReachableSql('l'),
  engaged: isEngagedSql('l'),
} as const;

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The leads with their SMS and first CRM delivery, narrowed by the filters. */
function filteredLeads(db: Knex, filters: Partial<LeadFilters>) {
  const query = db('ebook_requests as l')
    .leftJoin('sms_messages as s', 's.lead_id', 'l.id')
    .leftJoin('crm_deliveries as c', function joinFirstDelivery() {
      this.on('c.lead_id', '=', 'l.id').andOnVal('c.event', '=', 'lead.created');
    });
  const q = filters.q;
  if (q) {
    const pattern = likePattern(q);
    const digits = q.replace(/[\s./-]/g, '');
    query.where((where) => {
      where
        .whereILike('l.email', pattern)
        .orWhereRaw(`(l.nome || ' ' || l.cognome) ILIKE ?`, [pattern])
        .orWhereRaw(`(l.cognome || ' ' || l.nome) ILIKE ?`, [pattern]);
      if (/^\+?\d{3,}$/.test(digits)) where.orWhereLike('l.telefono', likePattern(digits.replace(/^\+/, '')));
      if (/^\d{1,9}$/.test(q)) where.orWhere('l.id', Number(q));
    });
  }
  if (filters.from) query.whereRaw(`l.created_at >= (?::date)::timestamp AT TIME ZONE '${OPERATOR_TIME_ZONE}'`, [filters.from]);
  if (filters.to) query.whereRaw(`l.created_at < (?::date + 1)::timestamp AT TIME ZONE '${OPERATOR_TIME_ZONE}'`, [filters.to]);
  if (filters.landingPath) query.where('l.landing_path', filters.landingPath);
  if (filters.source) query.where('l.source', filters.source);
  for (const field of TEXT_TOUCH_FILTERS) {
    const value = filters[field];
    if (!value) continue;
    // "(direct)" (or "direct") selects the leads without campaign, stored as NULL or 'direct'.
    if (field === 'utmSource' && campaignSourceFilter(value) === DIRECT_SOURCE) {
      query.whereRaw(isDirectSourceSql('l.utm_source'));
    } else {
      query.where(`l.${TOUCH_COLUMNS[field]}`, value);
    }
  }
  for (const [field, condition] of Object.entries(YES_NO_FILTERS)) {
    const value = filters[field as keyof typeof YES_NO_FILTERS];
    if (value) query.whereRaw(`${condition} = ?`, [value === 'si']);
  }
  if (filters.ebookType) query.where('l.ebook_type', filters.ebookType);
  if (filters.country) query.where('l.country', filters.country);
  if (filters.smsStatus) query.where('s.status', filters.smsStatus);
  return query;
}

/**
 * A page of leads. Whether each is on the suppression list is computed as it is read
 * (decision 048): the list's key hashes the page's contacts here, never in SQL.
 */
export async function listLeads(
  db: Knex,
  suppressionHashSecret: string,
  filters: LeadFilters,
  page: number,
  pageSize: number,
  order: LeadOrder = 'desc',
) {
  const [counted, rows] = await Promise.all([
    filteredLeads(db, filters).count<{ total: string }[]>({ total: '*' }).first(),
    filteredLeads(db, filters)
      .select<SummaryRow[]>(SUMMARY_COLUMNS)
      .orderBy([
        { column: 'l.created_at', order },
        { column: 'l.id', order },
      ])
      .limit(pageSize)
      .offset((page - 1) * pageSize),
  ]);
  const suppressions = await suppressionsOf(db, suppressionHashSecret, rows);
  return { total: Number(counted?.total ?? 0), page, pageSize, items: rows.map((row) => toSummary(row, suppressions.get(row.id))) };
}

export interface ExportRow extends SummaryRow {
  gdpr_consent: boolean;
  marketing_consent: boolean;
  marketing_consent_version: string | null;
  marketing_consent_withdrawn_at: Date | null;
  consent_version: string;
  ad_user_data: AdConsentState;
  ad_personalization: AdConsentState;
  /** The lead's suppression (decision 048), computed for each page. */
  marketing_suppressed_at: Date | null;
}

/** Reads the filtered leads page by page, newest first, by id (stable while new leads arrive). */
export function exportPages(db: Knex, suppressionHashSecret: string, filters: LeadFilters, pageSize = 1000) {
  let lastId: number | null = null;
  return async (): Promise<ExportRow[]> => {
    const query = filteredLeads(db, filters)
      .select<ExportRow[]>([
        ...SUMMARY_COLUMNS,
        'l.gdpr_consent',
        'l.marketing_consent',
        'l.marketing_consent_version',
        'l.marketing_consent_withdrawn_at',
        'l.consent_version',
        'l.ad_user_data',
        'l.ad_personalization',
      ])
      .orderBy('l.id', 'desc')
      .limit(pageSize);
    if (lastId !== null) query.where('l.id', '<', lastId);
    const rows = await query;
    if (rows.length > 0) lastId = rows[rows.length - 1]!.id;
    const suppressions = await suppressionsOf(db, suppressionHashSecret, rows);
    return rows.map((row) => ({
      ...withDirectAsNone(row),
      marketing_suppressed_at: suppressions.get(row.id)?.suppressedAt ?? null,
    }));
  };
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export async function findLeadDetail(db: Knex, suppressionHashSecret: string, id: number): Promise<LeadDetail | null> {
  const lead = await filteredLeads(db, {})
    .where('l.id', id)
    .first<
      | (SummaryRow & {
          gdpr_consent: boolean;
          marketing_consent: boolean;
          marketing_consent_version: string | null;
          marketing_consent_withdrawn_at: Date | null;
          consent_version: string;
          consent_timestamp: Date | null;
          ip_address: string | null;
          user_agent: string | null;
          repeat_of: number | null;
          ad_user_data: AdConsentState;
          ad_personalization: AdConsentState;
        })
      | undefined
    >([
      ...SUMMARY_COLUMNS,
      'l.gdpr_consent',
      'l.marketing_consent',
      'l.marketing_consent_version',
      'l.marketing_consent_withdrawn_at',
      'l.consent_version',
      'l.consent_timestamp',
      'l.ip_address',
      'l.user_agent',
      'l.repeat_of',
      'l.ad_user_data',
      'l.ad_personalization',
    ]);
  if (!lead) return null;

  const [sms, crm, emails, download, suppressions, conversions] = await Promise.all([
    db('sms_messages').where({ lead_id: id }).first(),
    db('crm_deliveries').where({ lead_id: id }).orderBy('id'),
    db('email_messages').where({ lead_id: id }).orderBy('id'),
    db('download_tokens').where({ lead_id: id }).first(),
    suppressionsOf(db, suppressionHashSecret, [lead]),
    conversionUploadsOfLead(db, id),
  ]);
  const suppression = suppressions.get(id);
  const [timeline, smsPrices] = sms
    ? await Promise.all([
        db('sms_events').where({ sms_message_id: sms.id }).orderBy([{ column: 'occurred_at' }, { column: 'id' }]),
        smsPriceSummary(db, sms.id),
      ])
    : ([[], null] as const);

  return {
    lead: {
      ...toSummary(lead, suppression),
      gdprConsent: lead.gdpr_consent,
      marketingConsent: lead.marketing_consent,
      marketingConsentVersion: lead.marketing_consent_version,
      marketingConsentWithdrawnAt: iso(lead.marketing_consent_withdrawn_at),
      consentVersion: lead.consent_version,
      consentTimestamp: iso(lead.consent_timestamp),
      ipAddress: lead.ip_address,
      userAgent: lead.user_agent,
      adUserData: lead.ad_user_data,
      adPersonalization: lead.ad_personalization,
    },
    suppression: suppression
      ? { suppressedAt: suppression.suppressedAt.toISOString(), kinds: suppression.kinds, source: suppression.source }
      : null,
    sms: sms
      ? {
          status: sms.status,
          provider: sms.provider,
          providerMessageId: sms.provider_message_id,
          attempts: sms.attempts,
          errorCode: sms.error_code,
          errorMessage: sms.error_message,
          sentAt: iso(sms.sent_at),
          deliveredAt: iso(sms.delivered_at),
          prices: smsPrices?.prices ?? [],
          pricesPending: smsPrices?.pending ?? 0,
          pricesGivenUp: smsPrices?.givenUp ?? 0,
          timeline: timeline.map((event) => ({
            status: event.status,
            at: event.occurred_at.toISOString(),
            providerStatus: event.provider_status,
            errorCode: event.error_code,
            errorMessage: event.error_message,
          })),
        }
      : null,
    crm: crm.map((delivery) => ({
      id: delivery.id,
      event: delivery.event,
      status: delivery.status,
      attempts: delivery.attempts,
      responseStatus: delivery.response_status,
      lastError: delivery.last_error,
      createdAt: delivery.created_at.toISOString(),
      deliveredAt: iso(delivery.delivered_at),
    })),
    emails: emails.map((email) => ({
      kind: email.kind,
      status: email.status,
      attempts: email.attempts,
      sentAt: iso(email.sent_at),
    })),
    conversions: conversions.map((upload) => ({
      id: upload.id,
      platform: upload.platform,
      event: upload.event,
      eventId: upload.event_id,
      status: upload.status,
      attempts: upload.attempts,
      responseStatus: upload.response_status,
      responseSummary: upload.response_summary,
      lastError: upload.last_error,
      createdAt: upload.created_at.toISOString(),
      updatedAt: upload.updated_at.toISOString(),
      sentAt: iso(upload.sent_at),
    })),
    download: download
      ? {
          expiresAt: download.expires_at.toISOString(),
          downloadCount: download.download_count,
          firstDownloadedAt: iso(download.first_downloaded_at),
        }
      : null,
    repeatOf: lead.repeat_of,
  };
}

export const leadExists = async (db: Knex, id: number) =>
  Boolean(await db('ebook_requests').where({ id }).first('id'));
