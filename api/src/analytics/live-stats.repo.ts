import type { Knex } from 'knex';
import { SMS_DELIVERED, SMS_HANDED_OVER } from '@guida/shared/deliveries/delivery-statuses';

export interface LiveFigures {
  requests_last_2h: number;
  downloads_last_2h: number;
}

/** The stored figures behind the social-proof widgets, in one round trip. */
export async function liveFigures(db: Knex): Promise<LiveFigures> {
  const result = await db.raw<{ rows: LiveFigures[] }>(`
    SELECT
      (SELECT count(*) FROM ebook_requests WHERE created_at > now() - interval '2 hours') AS requests_last_2h,
      (SELECT count(*) FROM guide_downloads WHERE downloaded_at > now() - interval '2 hours') AS downloads_last_2h
  `);
  return result.rows[0]!;
}

/**
 * The latest guide SMS of the last day: when, to which country, and whether the phone
 * reported it delivered (the others were only handed to the provider). No names, no numbers.
 */
export function recentDeliveries(db: Knex, limit: number) {
  return db('sms_messages as s')
    .join('ebook_requests as l', 'l.id', 's.lead_id')
    .whereIn('s.status', SMS_HANDED_OVER)
    .where('s.sent_at', '>', db.raw("now() - interval '24 hours'"))
    .orderBy('s.sent_at', 'desc')
    .limit(limit)
    .select<{ sent_at: Date; country: 'IT' | 'CH'; delivered: boolean }[]>(
      's.sent_at',
      'l.country',
      db.raw('s.status = ? AS delivered', [SMS_DELIVERED]),
    );
}
