import type { Knex } from 'knex';
import { SMS_HANDED_OVER } from '@guida/shared/deliveries/delivery-statuses';

export interface LiveFigures {
  visitors_online: number;
  readers_of_page: number;
  requests_last_2h: number;
  downloads_last_2h: number;
  requests_total: number;
}

/**
 * The real figures behind the social-proof widgets, in one round trip. "Online" means an
 * analytics event in the last five minutes; a page's readers are the sessions with an
 * event on that page in that time.
 */
export async function liveFigures(db: Knex, path: string): Promise<LiveFigures> {
  const result = await db.raw<{ rows: LiveFigures[] }>(
    `
    SELECT
      (SELECT count(DISTINCT session_id) FROM (
          SELECT session_id FROM page_views WHERE timestamp > now() - interval '5 minutes'
          UNION ALL SELECT session_id FROM conversion_funnel WHERE timestamp > now() - interval '5 minutes'
          UNION ALL SELECT session_id FROM section_views WHERE timestamp > now() - interval '5 minutes'
          UNION ALL SELECT session_id FROM form_interactions WHERE timestamp > now() - interval '5 minutes'
        ) active) AS visitors_online,
      (SELECT count(DISTINCT session_id) FROM (
          SELECT session_id FROM page_views WHERE path = :path AND timestamp > now() - interval '5 minutes'
          UNION ALL SELECT session_id FROM section_views WHERE path = :path AND timestamp > now() - interval '5 minutes'
          UNION ALL SELECT session_id FROM form_interactions WHERE path = :path AND timestamp > now() - interval '5 minutes'
        ) reading) AS readers_of_page,
      (SELECT count(*) FROM ebook_requests WHERE created_at > now() - interval '2 hours') AS requests_last_2h,
      (SELECT count(*) FROM guide_downloads WHERE downloaded_at > now() - interval '2 hours') AS downloads_last_2h,
      (SELECT count(*) FROM ebook_requests) AS requests_total
    `,
    { path },
  );
  return result.rows[0]!;
}

/** The latest guide SMS of the last day: when, and to which country. No names, no numbers. */
export function recentDeliveries(db: Knex, limit: number) {
  return db('sms_messages as s')
    .join('ebook_requests as l', 'l.id', 's.lead_id')
    .whereIn('s.status', SMS_HANDED_OVER)
    .where('s.sent_at', '>', db.raw("now() - interval '24 hours'"))
    .orderBy('s.sent_at', 'desc')
    .limit(limit)
    .select<{ sent_at: Date; country: 'IT' | 'CH' }[]>('s.sent_at', 'l.country');
}
