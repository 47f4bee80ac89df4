import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyWithdrawalLink, withdrawalLinkToken } from '@guida/shared/server/marketing-withdrawal-link';
import { recordSuppression, suppressionsOf } from '@guida/shared/server/marketing-suppression';
import { TEST_LINK_TOKEN_SECRET, insertLead } from '@guida/testing/lead-fixture';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { eraseLeads } from './erasure';
import { collectPersonalData } from './personal-data-export';

const SECRET = 'suppression-test-secret-0123456789abcdef';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** A lead whose person withdrew the marketing consent, as the API records it. */
async function withdrawnLead(email: string, telefono: string) {
  const lead = await insertLead(database.db, { email, telefono, marketing_consent: true, marketing_consent_version: '1.0' });
  await keyWithdrawalLink(database.db, lead.leadId, withdrawalLinkToken(TEST_LINK_TOKEN_SECRET, lead.leadId).hash, 24);
  await database.db.transaction(async (trx) => {
    await trx('ebook_requests').where({ id: lead.leadId }).update({ marketing_consent_withdrawn_at: trx.fn.now() });
    await recordSuppression(trx, SECRET, [{ email, telefono }], { source: 'email', refresh: true });
  });
  return lead;
}

describe('the suppression list and data rights (decision 048)', () => {
  it('outlives the erasure of the lead (it holds no address), so the person is still recognised when they come back', async () => {
    const email = 'cancellata@example.it';
    const telefono = '+393471230001';
    const lead = await withdrawnLead(email, telefono);
    const before = await database.db('marketing_suppressions').orderBy('contact_kind');

    await database.db.transaction((trx) => eraseLeads(trx, [{ id: lead.leadId, email, telefono }], { reason: 'request', person: { email } }));

    expect(await database.db('ebook_requests').where({ id: lead.leadId })).toEqual([]);
    expect(await database.db('marketing_withdrawal_links').where({ lead_id: lead.leadId })).toEqual([]);
    expect(await database.db('marketing_suppressions').orderBy('contact_kind')).toEqual(before);
    expect(before).toHaveLength(2);
    // Nothing in it names the person.
    const kept = JSON.stringify(before);
    expect(kept).not.toContain('cancellata');
    expect(kept).not.toContain('3471230001');

    const back = await insertLead(database.db, { email: 'Cancellata@Example.it', telefono: '+393471230099' });
    const found = await suppressionsOf(database.db, SECRET, [{ id: back.leadId, email: 'Cancellata@Example.it', telefono: '+393471230099' }]);
    expect(found.get(back.leadId)).toMatchObject({ kinds: ['email'], source: 'email' });
    // Under another key the list recognises nobody: the hashes are keyed.
    expect((await suppressionsOf(database.db, `${SECRET}-other`, [{ id: back.leadId, email, telefono }])).size).toBe(0);
  });

  it('shows up in a data-access export: when and how, for the address and the numbers of its leads, without hashes', async () => {
    const email = 'accesso@example.it';
    const lead = await withdrawnLead(email, '+393471230002');
    const exported = await collectPersonalData(database.db, email, { retentionMonths: 24, suppressionHashSecret: SECRET });
    expect(exported.data.marketing_suppressions).toEqual([
      { id: 1, contact_kind: expect.stringMatching(/^(email|phone)$/), source: 'email', created_at: expect.any(Date), suppressed_at: expect.any(Date) },
      { id: 2, contact_kind: expect.stringMatching(/^(email|phone)$/), source: 'email', created_at: expect.any(Date), suppressed_at: expect.any(Date) },
    ]);
    expect(exported.data.ebook_requests![0]).toMatchObject({ id: lead.leadId, marketing_consent_withdrawn_at: expect.any(Date) });
    expect(exported.information.tabelle).toContain('marketing_suppressions');

    const other = await collectPersonalData(database.db, 'nessuno@example.it', { retentionMonths: 24, suppressionHashSecret: SECRET });
    expect(other.data.marketing_suppressions).toEqual([]);
  });
});
