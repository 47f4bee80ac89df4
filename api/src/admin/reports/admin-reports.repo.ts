import type { Knex } from 'knex';
import { OPERATOR_TIME_ZONE } from '@guida/shared/analytics-rules';
import { SMS_HANDED_OVER_EVENT } from '@guida/shared/deliveries/delivery-statuses';
import type { ConsentReport } from '@guida/shared/schemas/admin';
import { campaignSourceFilter, campaignSourceSql } from '@guida/shared/server/campaign-source-sql';
import type { FunnelFilter } from './funnel.repo';

export interface TimeToSmsRow {
  day: string;
  sent: number;
  p50_seconds: number;
  p95_seconds: number;
}

/**
 * Seconds from a request to its SMS reaching the provider, per day of the request: the
 * first "sent" of the SMS timeline, so a later resend does not count.
 */
export async function timeToSms(db: Knex, filter: FunnelFilter): Promise<TimeToSmsRow[]> {
  const result = await db.raw<{ rows: TimeToSmsRow[] }>(
    `
    WITH delays AS (
      SELECT to_char(l.created_at AT TIME ZONE '${OPERATOR_TIME_ZONE}', 'YYYY-MM-DD') AS day,
        extract(epoch FROM first_sent.at - l.created_at) AS seconds
      FROM ebook_requests l
      JOIN sms_messages s ON s.lead_id = l.id
      CROSS JOIN LATERAL (
        SELECT min(e.occurred_at) AS at FROM sms_events e WHERE e.sms_message_id = s.id AND e.status = :handedOver
      ) first_sent
      WHERE first_sent.at IS NOT NULL
        AND l.created_at >= :from AND l.created_at < :to
        AND (CAST(:landingPath AS text) IS NULL OR l.landing_path = :landingPath)
        AND (CAST(:utmSource AS text) IS NULL OR ${campaignSourceSql('l.utm_source')} = :utmSource)
    )
    SELECT day, count(*)::int AS sent,
      round(percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds)::numeric, 1)::float AS p50_seconds,
      round(percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds)::numeric, 1)::float AS p95_seconds
    FROM delays
    GROUP BY day
    ORDER BY day
    `,
    {
      from: filter.from,
      to: filter.to,
      landingPath: filter.landingPath ?? null,
      utmSource: campaignSourceFilter(filter.utmSource) ?? null,
      handedOver: SMS_HANDED_OVER_EVENT,
    },
  );
  return result.rows;
}

/** Of the visitors whose latest cookie choice in the range was made then, how many allowed each category. */
export async function consentReport(db: Knex, range: { from: Date; to: Date }): Promise<ConsentReport> {
  const result = await db.raw<{ rows: ConsentReport[] }>(
    `
    WITH latest AS (
      SELECT DISTINCT ON (session_id) analytics, marketing, preferences
      FROM cookie_consents
      WHERE consent_timestamp >= :from AND consent_timestamp < :to
      ORDER BY session_id, consent_timestamp DESC, id DESC
    )
    SELECT count(*)::int AS choices,
      count(*) FILTER (WHERE analytics)::int AS analytics,
      count(*) FILTER (WHERE marketing)::int AS marketing,
      count(*) FILTER (WHERE preferences)::int AS preferences
    FROM latest
    `,
    range,
  );
  return result.rows[0]!;
}
