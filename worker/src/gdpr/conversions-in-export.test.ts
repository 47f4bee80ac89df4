import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversionEventId } from '@guida/shared/deliveries/conversion-uploads';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { insertLead } from '@guida/testing/lead-fixture';
import { collectPersonalData } from './personal-data-export';

/** A data-access export names what went to the ad platforms (decision 061): its recipients. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('the personal data export', () => {
  it('lists the lead’s conversions sent to the ad platforms, and says who receives what', async () => {
    const { leadId } = await insertLead(database.db, { email: 'lucia.neri@example.it', ad_user_data: 'granted', ad_personalization: 'granted' });
    await database.db('conversion_uploads').insert({
      lead_id: leadId,
      subject_lead_id: leadId,
      platform: 'meta',
      event: 'lead',
      event_id: conversionEventId(leadId, 'lead'),
      status: 'delivered',
      attempts: 1,
      response_status: 200,
      response_summary: 'eventi ricevuti: 1 · fbtrace_id Atest',
      sent_at: database.db.fn.now(),
    });
    const exported = await collectPersonalData(database.db, 'lucia.neri@example.it', {
      retentionMonths: 24,
      suppressionHashSecret: 'development-only-suppression-hash-secret',
    });
    expect(exported.data.conversion_uploads).toEqual([
      expect.objectContaining({ lead_id: leadId, platform: 'meta', event: 'lead', status: 'delivered', response_summary: 'eventi ricevuti: 1 · fbtrace_id Atest' }),
    ]);
    expect(exported.information.destinatari).toContain('Meta');
    expect(exported.information.tabelle).toContain('conversion_uploads');
  });
});
