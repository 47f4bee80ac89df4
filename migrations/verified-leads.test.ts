import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { migrationConfig } from './index';

const verifiedLeads = { ...migrationConfig, name: '20261206090000_verified_leads' };

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

let phone = 0;
/** A lead as stored before the migration, with its SMS (in that status) and its timeline. */
async function leadBefore(sms: { status: string; delivered_at?: string | null; events?: [string, string][] } | null, downloads: string[] = []) {
  phone += 1;
  const [lead] = await database.db('ebook_requests')
    .insert({ nome: 'A', cognome: 'B', email: 'a@b.it', telefono: `+3934712300${String(phone).padStart(2, '0')}` })
    .returning<{ id: number }[]>('id');
  if (sms) {
    const [row] = await database.db('sms_messages')
      .insert({ lead_id: lead!.id, status: sms.status, delivered_at: sms.delivered_at ?? null })
      .returning<{ id: number }[]>('id');
    for (const [status, at] of sms.events ?? []) {
      await database.db('sms_events').insert({ sms_message_id: row!.id, status, occurred_at: at });
    }
  }
  for (const [index, at] of downloads.entries()) {
    await database.db('guide_downloads').insert({ lead_id: lead!.id, downloaded_at: at, visitor_hash: `v${index}` });
  }
  return lead!.id;
}

describe('migration 20261206090000_verified_leads', () => {
  it('backfills reachable_at from the first delivered report and engaged_at from the first download, and rolls back', async () => {
    await database.db.migrate.down(verifiedLeads);
    const delivered = await leadBefore({
      status: 'delivered',
      delivered_at: '2026-11-20T10:00:05Z',
      events: [
        ['sent', '2026-11-20T10:00:01Z'],
        ['delivered', '2026-11-20T10:00:05Z'],
      ],
    });
    // Delivered, then sent again by the admin: the SMS's own delivery time went, its timeline kept the first.
    const resent = await leadBefore({
      status: 'sent',
      delivered_at: null,
      events: [
        ['delivered', '2026-11-21T08:00:00Z'],
        ['pending', '2026-11-22T08:00:00Z'],
        ['sent', '2026-11-22T08:00:03Z'],
      ],
    });
    const undelivered = await leadBefore({ status: 'undelivered', events: [['undelivered', '2026-11-20T11:00:00Z']] }, [
      '2026-11-23T09:00:00Z',
      '2026-11-22T09:00:00Z',
    ]);
    const repeat = await leadBefore(null);

    await database.db.migrate.up(verifiedLeads);
    const rows = await database.db('ebook_requests')
      .whereIn('id', [delivered, resent, undelivered, repeat])
      .orderBy('id')
      .select('reachable_at', 'engaged_at');
    expect(rows).toEqual([
      { reachable_at: new Date('2026-11-20T10:00:05Z'), engaged_at: null },
      { reachable_at: new Date('2026-11-21T08:00:00Z'), engaged_at: null },
      { reachable_at: null, engaged_at: new Date('2026-11-22T09:00:00Z') },
      { reachable_at: null, engaged_at: null },
    ]);
    // Backfilled leads are not news to the CRM.
    expect(await database.db('crm_deliveries').whereIn('event', ['lead.sms_delivered', 'lead.guide_opened'])).toEqual([]);

    // Once per lead and event.
    await database.db('crm_deliveries').insert({ lead_id: delivered, subject_lead_id: delivered, event: 'lead.sms_delivered' });
    await expect(
      database.db('crm_deliveries').insert({ lead_id: delivered, subject_lead_id: delivered, event: 'lead.sms_delivered' }),
    ).rejects.toThrow(/crm_deliveries_lead_sms_delivered_key/);

    await database.db.migrate.down(verifiedLeads);
    const columns = await database.db('ebook_requests').columnInfo();
    expect(columns).not.toHaveProperty('reachable_at');
    expect(columns).not.toHaveProperty('engaged_at');
    expect(await database.db('crm_deliveries').where({ event: 'lead.sms_delivered' })).toEqual([]);
    await database.db.migrate.up(verifiedLeads);
  });
});
