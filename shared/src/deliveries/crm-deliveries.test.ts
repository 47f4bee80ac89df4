import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertLead } from '@guida/testing/lead-fixture';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import {
  claimCrmDelivery,
  reopenCrmDelivery,
  retryFailedCrmDelivery,
  settleCrmDeliveriesForErasure,
} from './crm-deliveries';
import { DeliveryTransitionError, type DeliveryStatus } from './delivery-statuses';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const row = (id: number) => database.db('crm_deliveries').where({ id }).first();
async function leadWithDelivery(status: DeliveryStatus, ageSeconds = 0) {
  const lead = await insertLead(database.db);
  await database.db('crm_deliveries')
    .where({ id: lead.crmDeliveryId })
    .update({ status, last_error: 'earlier error', updated_at: database.db.raw('now() - make_interval(secs => ?)', [ageSeconds]) });
  return lead;
}

describe('CRM delivery transitions', () => {
  it('claims an unsent delivery once, and takes over only a claim older than the claim timeout', async () => {
    const pending = await leadWithDelivery('pending');
    const claim = (id: number, status: DeliveryStatus) => claimCrmDelivery(database.db, { id, status }, 1, 30_000);
    expect(await claim(pending.crmDeliveryId, 'pending')).toBe('claimed');
    expect(await claim(pending.crmDeliveryId, 'pending')).toBeNull();
    // Claimed a moment ago: its worker may still be posting.
    expect(await claim(pending.crmDeliveryId, 'sending')).toBeNull();

    const abandoned = await leadWithDelivery('sending', 31);
    expect(await claim(abandoned.crmDeliveryId, 'sending')).toBe('taken-over');
    expect(await claim(abandoned.crmDeliveryId, 'sending')).toBeNull();
    expect(await row(abandoned.crmDeliveryId)).toMatchObject({ status: 'sending', attempts: 1 });
  });

  it('refuses to reopen or retry a delivery on its way or already done, with a typed error naming its status', async () => {
    const sending = await leadWithDelivery('sending');
    const refusal = await reopenCrmDelivery(database.db, sending.leadId).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DeliveryTransitionError);
    expect(refusal).toMatchObject({ kind: 'crm', operation: 'reopen', current: 'sending', inProgress: true });
    expect(await row(sending.crmDeliveryId)).toMatchObject({ status: 'sending' });

    const delivered = await leadWithDelivery('delivered');
    await expect(retryFailedCrmDelivery(database.db, delivered.crmDeliveryId)).rejects.toMatchObject({
      current: 'delivered',
      inProgress: false,
    });
    await expect(retryFailedCrmDelivery(database.db, 2_000_000_000)).rejects.toMatchObject({ current: null });

    const failed = await leadWithDelivery('failed');
    await retryFailedCrmDelivery(database.db, failed.crmDeliveryId);
    expect(await row(failed.crmDeliveryId)).toMatchObject({ status: 'pending' });
    expect(await reopenCrmDelivery(database.db, delivered.leadId)).toBe(delivered.crmDeliveryId);
    expect(await row(delivered.crmDeliveryId)).toMatchObject({ status: 'pending', last_error: null });
  });

  it('settles an erased lead: deliveries on their way, a post in flight too, are skipped; finished ones keep their status', async () => {
    const leads = {
      pending: await leadWithDelivery('pending'),
      retrying: await leadWithDelivery('retrying'),
      sending: await leadWithDelivery('sending'),
      delivered: await leadWithDelivery('delivered'),
      failed: await leadWithDelivery('failed'),
    };
    const ids = Object.values(leads).map((lead) => lead.leadId);
    const settled = await database.db.transaction((trx) => settleCrmDeliveriesForErasure(trx, ids));
    expect(settled).toBe(5);
    const statuses = Object.fromEntries(
      await Promise.all(Object.entries(leads).map(async ([name, lead]) => [name, (await row(lead.crmDeliveryId)).status])),
    );
    expect(statuses).toEqual({
      pending: 'skipped',
      retrying: 'skipped',
      sending: 'skipped',
      delivered: 'delivered',
      failed: 'failed',
    });
    const sending = await row(leads.sending.crmDeliveryId);
    expect(sending).toMatchObject({ subject_lead_id: leads.sending.leadId, last_error: null });
  });
});
