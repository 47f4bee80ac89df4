/**
 * Verified leads (issue 30, decision 059): a lead is reachable once Twilio's status
 * callback first says its SMS was delivered, and engaged once its guide is first really
 * downloaded (a guide_downloads row; HEAD, Range and link-preview requests never make one).
 * A lead is verified when either is set, at LEAST(reachable_at, engaged_at). Both are set
 * once and kept: a later report or resend does not move them.
 *
 * Leads stored before are backfilled from their rows, one UPDATE ... FROM per column: the
 * first `delivered` entry of the SMS's timeline (or the SMS's delivered_at), and the first
 * download. The CRM is not told of those: its events start with this migration.
 */
import type { Knex } from 'knex';

const VERIFIED_AT = 'LEAST(reachable_at, engaged_at)';
const CRM_EVENTS = ['lead.sms_delivered', 'lead.guide_opened'] as const;
const crmKey = (event: string) => `crm_deliveries_lead_${event.slice('lead.'.length)}_key`;

export async function up(knex: Knex) {
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.timestamp('reachable_at', { useTz: true }).comment(
      'first time the SMS provider reported the lead’s SMS delivered; set once',
    );
    t.timestamp('engaged_at', { useTz: true }).comment(
      'first real download of the guide (a guide_downloads row); set once',
    );
  });

  await knex.raw(`
    UPDATE ebook_requests l SET reachable_at = d.at
    FROM (
      SELECT s.lead_id, LEAST(s.delivered_at, MIN(e.occurred_at)) AS at
      FROM sms_messages s
      LEFT JOIN sms_events e ON e.sms_message_id = s.id AND e.status = 'delivered'
      GROUP BY s.id
    ) d
    WHERE d.lead_id = l.id AND d.at IS NOT NULL
  `);
  await knex.raw(`
    UPDATE ebook_requests l SET engaged_at = d.at
    FROM (SELECT lead_id, MIN(downloaded_at) AS at FROM guide_downloads GROUP BY lead_id) d
    WHERE d.lead_id = l.id
  `);

  // Verified leads by verification time (the conversions' exports and time ranges); the
  // overview counts the leads of a period by created_at, which has its index already.
  await knex.raw(
    `CREATE INDEX ebook_requests_verified_at_idx ON ebook_requests ((${VERIFIED_AT}))
     WHERE reachable_at IS NOT NULL OR engaged_at IS NOT NULL`,
  );
  // Each of the two CRM events goes out once per lead, like lead.consent_withdrawn.
  for (const event of CRM_EVENTS) {
    await knex.raw(`CREATE UNIQUE INDEX ${crmKey(event)} ON crm_deliveries (lead_id) WHERE event = '${event}'`);
  }
}

export async function down(knex: Knex) {
  for (const event of CRM_EVENTS) await knex.raw(`DROP INDEX ${crmKey(event)}`);
  // Earlier code knows no such events: their rows go, like the columns they came with.
  await knex('crm_deliveries').whereIn('event', CRM_EVENTS).delete();
  await knex.raw('DROP INDEX ebook_requests_verified_at_idx');
  await knex.schema.alterTable('ebook_requests', (t) => {
    t.dropColumn('engaged_at');
    t.dropColumn('reachable_at');
  });
}
