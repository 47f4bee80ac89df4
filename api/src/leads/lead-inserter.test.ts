import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ebookRequestSchema } from '@guida/shared/schemas/lead';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { waitFor } from '@guida/testing/wait-for';
import { isDatabaseUnavailable } from '../http/database-errors';
import { placeKeyOf } from '../offer';
import { TEST_SESSION_SECRET, uniqueItalianMobile, validLead } from '../testing/test-api';
import { createLeadInserter, NoPlaceLeftError } from './lead-inserter';
import { insertLeads, type NewLead } from './leads.repo';

const placeKey = placeKeyOf(TEST_SESSION_SECRET);

function newLead(overrides: Record<string, unknown> = {}): NewLead {
  const request = ebookRequestSchema.parse(validLead({ telefono: uniqueItalianMobile(), ...overrides }));
  return {
    request,
    ipAddress: '203.0.113.0',
    userAgent: 'vitest',
    consentVersion: '1.0',
    privacyConsentHash: 'a'.repeat(64),
    marketingConsentVersion: '2.1',
    marketingConsentHash: 'b'.repeat(64),
    downloadTokenTtlDays: 30,
    placeKey: placeKey(request.telefono),
    smsBudget: { trusted: false, address: null },
  };
}

describe('lead inserter (batched inserts)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('stores many concurrent leads in few statements, each with all its rows', async () => {
    const insert = createLeadInserter(database.db, { maxBatchSize: 100, maxConcurrentBatches: 2 });
    const leads = Array.from({ length: 120 }, (_, index) => newLead({ marketingConsent: index % 2 === 0 }));

    const results = await Promise.all(leads.map((lead) => insert(lead)));

    const ids = results.map((result) => {
      expect(result.repeatOf).toBeNull();
      return result.leadId;
    });
    expect(new Set(ids).size).toBe(leads.length);
    const db = database.db;
    const count = async (table: string) =>
      Number((await db(table).whereIn('lead_id', ids).count({ n: '*' }).first())?.n);
    expect(Number((await db('ebook_requests').whereIn('id', ids).count({ n: '*' }).first())?.n)).toBe(120);
    expect(await count('sms_messages')).toBe(120);
    expect(await count('crm_deliveries')).toBe(120);
    expect(await count('download_tokens')).toBe(120);
    expect(await count('recent_phone_requests')).toBe(120);
    // A privacy consent for each lead, a marketing consent for each one that gave it.
    expect(await count('gdpr_consents')).toBe(180);

    // Each answer belongs to its own lead: phone and CRM delivery match; the link's token
    // is not stored (the worker keys the link when it sends it).
    for (const [index, lead] of leads.entries()) {
      const result = results[index]!;
      const stored = await db('ebook_requests')
        .where({ id: result.leadId })
        .first('telefono', 'marketing_consent', 'marketing_consent_version', 'consent_version');
      expect(stored).toEqual({
        telefono: lead.request.telefono,
        marketing_consent: index % 2 === 0,
        marketing_consent_version: index % 2 === 0 ? '2.1' : null,
        consent_version: '1.0',
      });
      const consents = await db('gdpr_consents')
        .where({ lead_id: result.leadId })
        .orderBy('consent_type')
        .select('consent_type', 'consent_version', 'consent_text_hash');
      expect(consents).toEqual([
        ...(index % 2 === 0 ? [{ consent_type: 'marketing', consent_version: '2.1', consent_text_hash: 'b'.repeat(64) }] : []),
        { consent_type: 'privacy', consent_version: '1.0', consent_text_hash: 'a'.repeat(64) },
      ]);
      expect(await db('download_tokens').where({ lead_id: result.leadId }).first('token_hash')).toEqual({ token_hash: null });
      const crm = await db('crm_deliveries').where({ id: result.crmDeliveryId }).first('lead_id');
      expect(crm?.lead_id).toBe(result.leadId);
    }
    // now() is the time of the statement's transaction: 120 leads arriving at once went in
    // two statements (a batch of 100, then the 20 left).
    const statementTimes = await db('ebook_requests').whereIn('id', ids).countDistinct({ n: 'created_at' }).first();
    expect(Number(statementTimes?.n)).toBe(2);
  });

  it('keeps the click ids of each lead of a batch by that lead’s own recorded cookie choice (decision 049)', async () => {
    const db = database.db;
    const [accepted, refused] = ['Accepted_0123456789abcdef', 'Refused_0123456789abcdefgh'];
    await db('cookie_consents').insert([
      { session_id: accepted, marketing: true },
      { session_id: refused, marketing: false },
    ]);
    const withClickIds = (cookieConsentSessionId?: string) =>
      newLead({ gclid: 'Cj0KCQ-batch', firstTouch: { fbclid: 'IwAR0batch' }, cookieConsentSessionId });
    const leads = [withClickIds(accepted), withClickIds(), withClickIds(refused), withClickIds(accepted)];

    const results = await insertLeads(db, leads, { startsAt: null, placesTotal: null });

    const stored = await Promise.all(
      results.map((result) => db('ebook_requests').where({ id: result!.leadId }).first('gclid', 'first_fbclid', 'ad_user_data', 'ad_personalization')),
    );
    expect(stored).toEqual([
      { gclid: 'Cj0KCQ-batch', first_fbclid: 'IwAR0batch', ad_user_data: 'granted', ad_personalization: 'granted' },
      { gclid: null, first_fbclid: null, ad_user_data: 'denied', ad_personalization: 'denied' },
      { gclid: null, first_fbclid: null, ad_user_data: 'denied', ad_personalization: 'denied' },
      { gclid: 'Cj0KCQ-batch', first_fbclid: 'IwAR0batch', ad_user_data: 'granted', ad_personalization: 'granted' },
    ]);
    // One statement: the four leads share its transaction's time.
    const times = await db('ebook_requests').whereIn('id', results.map((result) => result!.leadId)).countDistinct({ n: 'created_at' }).first();
    expect(Number(times?.n)).toBe(1);
  });

  it('stores every submission of one phone, the repeats linked to the first and without an SMS', async () => {
    const insert = createLeadInserter(database.db);
    const first = newLead();
    const repeats = Array.from({ length: 6 }, (_, index) => ({
      ...first,
      request: { ...first.request, nome: `Ripetizione${index}` },
    }));

    const results = await Promise.all([first, ...repeats].map((lead) => insert(lead)));

    const ids = results.map((result) => result.leadId);
    expect(new Set(ids).size).toBe(7);
    const opener = results.filter((result) => result.repeatOf === null);
    expect(opener).toHaveLength(1);
    const firstId = opener[0]!.leadId;
    for (const result of results) if (result !== opener[0]) expect(result.repeatOf).toBe(firstId);

    const db = database.db;
    const rows = await db('ebook_requests').where({ telefono: first.request.telefono }).orderBy('id').select('id', 'repeat_of');
    expect(rows).toHaveLength(7);
    expect(rows.filter((row) => row.repeat_of === null).map((row) => row.id)).toEqual([firstId]);
    // One SMS and one link for the phone; every submission has its consent proof and reaches the CRM.
    expect(await db('sms_messages').whereIn('lead_id', ids).pluck('lead_id')).toEqual([firstId]);
    expect(await db('download_tokens').whereIn('lead_id', ids).pluck('lead_id')).toEqual([firstId]);
    expect(await db('crm_deliveries').whereIn('lead_id', ids).count({ n: '*' }).first()).toEqual({ n: 7 });
    expect(await db('gdpr_consents').whereIn('lead_id', ids).where({ consent_type: 'privacy' }).count({ n: '*' }).first()).toEqual({ n: 7 });
    expect(await db('recent_phone_requests').where({ telefono: first.request.telefono }).first('lead_id')).toEqual({ lead_id: firstId });
  });

  it('opens a new window, with its SMS, once the phone\'s 24 hours are over', async () => {
    const insert = createLeadInserter(database.db);
    const lead = newLead();
    const first = await insert(lead);
    await database.db('recent_phone_requests')
      .where({ telefono: lead.request.telefono })
      .update({ requested_at: database.db.raw("now() - interval '25 hours'") });

    const later = await insert(lead);

    expect(later.repeatOf).toBeNull();
    expect(later.leadId).not.toBe(first.leadId);
    expect(await database.db('sms_messages').where({ lead_id: later.leadId }).first('status')).toEqual({ status: 'pending' });
    expect(await database.db('recent_phone_requests').where({ telefono: lead.request.telefono }).first('lead_id')).toEqual({
      lead_id: later.leadId,
    });
  });

  describe('with a cap on the places (decision 047)', () => {
    /** An offer starting now: the places taken by the tests above do not count. */
    async function offerStartingNow(placesTotal: number) {
      const startsAt = new Date();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { startsAt, placesTotal };
    }
    const placesSince = async (startsAt: Date) =>
      Number((await database.db('offer_places').where('taken_at', '>=', startsAt).count({ n: '*' }).first())?.n);

    it('never takes more places than the cap, however many batches of however many processes run at once', async () => {
      const places = await offerStartingNow(5);
      // Five API processes, each with its own batches, every lead arriving at the same moment.
      const inserters = Array.from({ length: 5 }, () => createLeadInserter(database.db, { places }));
      const leads = Array.from({ length: 50 }, () => newLead());

      const outcomes = await Promise.allSettled(leads.map((lead, index) => inserters[index % 5]!(lead)));

      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(refused).toHaveLength(45);
      for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(NoPlaceLeftError);
      const phones = leads.map((lead) => lead.request.telefono);
      expect(Number((await database.db('ebook_requests').whereIn('telefono', phones).count({ n: '*' }).first())?.n)).toBe(5);
      expect(Number((await database.db('recent_phone_requests').whereIn('telefono', phones).count({ n: '*' }).first())?.n)).toBe(5);
      expect(await placesSince(places.startsAt)).toBe(5);
    });

    it('lets a phone that holds a place in while places remain, and refuses the newcomers beyond them', async () => {
      const places = await offerStartingNow(2);
      const insert = createLeadInserter(database.db, { places });
      const holder = newLead();
      await insert(holder);

      // One batch: the holder again, then two newcomers for the one place left.
      const outcomes = await Promise.allSettled([holder, newLead(), newLead()].map((lead) => insert(lead)));

      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect(outcomes[2]).toMatchObject({ reason: expect.any(NoPlaceLeftError) });
      expect(await placesSince(places.startsAt)).toBe(2);
      // Every place taken: the offer has ended, for the holder too.
      await expect(insert(holder)).rejects.toBeInstanceOf(NoPlaceLeftError);
    });
  });

  it('fails only the lead the database refuses, not the others of its batch', async () => {
    const insert = createLeadInserter(database.db);
    // country is two characters in the schema: the database refuses this one lead.
    const refused = newLead();
    refused.request = { ...refused.request, country: 'ITA' as 'IT' };
    const good = [newLead(), newLead(), newLead()];

    const outcomes = await Promise.allSettled([good[0]!, refused, good[1]!, good[2]!].map((lead) => insert(lead)));

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    for (const lead of good) {
      expect(await database.db('ebook_requests').where({ telefono: lead.request.telefono }).first('id')).toBeDefined();
    }
    expect(await database.db('ebook_requests').where({ telefono: refused.request.telefono }).first()).toBeUndefined();
    expect(await database.db('recent_phone_requests').where({ telefono: refused.request.telefono }).first()).toBeUndefined();
  });

  it('answers 503 instead of waiting without end when the database does not take the batch', async () => {
    const insert = createLeadInserter(database.db, { maxConcurrentBatches: 1, maxWaitMs: 300, maxWaiting: 1 });
    const stuck = newLead();
    // Another transaction holds the phone's window: the only batch slot waits on its lock.
    const blocker = await database.db.transaction();
    await blocker('ebook_requests').insert({ id: 999_999, nome: 'Blocco', cognome: 'Riga', email: 'b@example.it', telefono: stuck.request.telefono });
    await blocker('recent_phone_requests').insert({ telefono: stuck.request.telefono, lead_id: 999_999 });
    try {
      const first = insert(stuck);
      // The others come once the stuck lead's batch holds the slot, waiting on the lock.
      await waitFor(
        async () => {
          const { rows } = await database.db.raw(
            "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          return rows[0].waiting > 0;
        },
        { what: "the stuck lead's batch to wait on the lock" },
      );
      const waitingTooLong = insert(newLead());
      const overTheLimit = insert(newLead());

      await expect(overTheLimit).rejects.toSatisfy(isDatabaseUnavailable);
      await expect(waitingTooLong).rejects.toSatisfy(isDatabaseUnavailable);
      await blocker.rollback();
      // Once the lock goes, the stuck lead is stored as usual.
      expect(await first).toMatchObject({ repeatOf: null });
    } finally {
      if (!blocker.isCompleted()) await blocker.rollback();
    }
  });
});
