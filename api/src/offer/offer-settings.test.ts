import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertLead } from '@guida/testing/lead-fixture';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { CONFIGURATION_ACTOR } from '../admin';
import { TEST_SESSION_SECRET } from '../testing/test-api';
import { offerSettingsOf, placeKeyOf, recordOfferSettings, type OfferSettings } from './index';

const placeKey = placeKeyOf(TEST_SESSION_SECRET);
const settings = (env: { OFFER_STARTS_AT?: string; OFFER_ENDS_AT?: string; FREE_PLACES_TOTAL?: number }): OfferSettings =>
  offerSettingsOf({ FREE_PLACES_TOTAL: 0, ...env });

describe('the offer recorded at an API start', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });
  const auditEntries = () =>
    database.db('admin_audit_log').where({ action: 'change_offer_settings' }).orderBy('id').select('user_id', 'username', 'target_type', 'details');

  it('writes one audit entry, with the old and new values, each time the settings change, and none when they do not', async () => {
    const first = settings({ OFFER_ENDS_AT: '2026-12-31T23:59:00+01:00', FREE_PLACES_TOTAL: 500 });
    const recorded = await recordOfferSettings(database.db, first, placeKey);
    expect(recorded.change).toEqual({
      before: { startsAt: null, endsAt: null, placesTotal: 0 },
      after: { startsAt: null, endsAt: '2026-12-31T22:59:00.000Z', placesTotal: 500 },
    });
    expect(await auditEntries()).toEqual([
      { user_id: null, username: CONFIGURATION_ACTOR, target_type: 'offer', details: recorded.change },
    ]);

    // A restart with the same settings: nothing new.
    expect((await recordOfferSettings(database.db, first, placeKey)).change).toBeNull();
    expect(await auditEntries()).toHaveLength(1);

    // A later deadline and a start.
    const second = settings({
      OFFER_STARTS_AT: '2026-12-01T00:00:00+01:00',
      OFFER_ENDS_AT: '2027-01-15T23:59:00+01:00',
      FREE_PLACES_TOTAL: 500,
    });
    await recordOfferSettings(database.db, second, placeKey);
    const entries = await auditEntries();
    expect(entries).toHaveLength(2);
    expect(entries[1]!.details).toEqual({
      before: { startsAt: null, endsAt: '2026-12-31T22:59:00.000Z', placesTotal: 500 },
      after: { startsAt: '2026-11-30T23:00:00.000Z', endsAt: '2027-01-15T22:59:00.000Z', placesTotal: 500 },
    });
  });

  it('writes one entry when several API processes start together with new settings', async () => {
    const before = (await auditEntries()).length;
    const changed = settings({ OFFER_ENDS_AT: '2027-02-01T00:00:00+01:00', FREE_PLACES_TOTAL: 200 });

    const outcomes = await Promise.all(Array.from({ length: 6 }, () => recordOfferSettings(database.db, changed, placeKey)));

    expect(outcomes.filter((outcome) => outcome.change !== null)).toHaveLength(1);
    const entries = await auditEntries();
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)!.details).toMatchObject({ after: { startsAt: null, endsAt: '2027-01-31T23:00:00.000Z', placesTotal: 200 } });
  });
});

describe('the places of the leads stored before places were kept', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('are given at the first start: one per phone, when its first lead since the offer\'s start came', async () => {
    const phone = '+393470000101';
    const other = '+393470000102';
    const before = '2026-11-01T10:00:00Z';
    const startsAt = '2026-11-20T00:00:00Z';
    await insertLead(database.db, { telefono: phone, created_at: before });
    await insertLead(database.db, { telefono: phone, created_at: '2026-11-21T10:00:00Z' });
    await insertLead(database.db, { telefono: phone, created_at: '2026-11-22T10:00:00Z' });
    await insertLead(database.db, { telefono: other, created_at: before });

    const recorded = await recordOfferSettings(database.db, settings({ OFFER_STARTS_AT: startsAt, FREE_PLACES_TOTAL: 10 }), placeKey);

    expect(recorded.backfilled).toBe(2);
    const places = await database.db('offer_places').select('phone_key', 'taken_at');
    const takenAt = (telefono: string) => places.find((place) => place.phone_key.equals(placeKey(telefono)))?.taken_at.toISOString();
    expect(takenAt(phone)).toBe('2026-11-21T10:00:00.000Z');
    expect(takenAt(other)).toBe('2026-11-01T10:00:00.000Z');
    // No phone number in the place, and only once: the next start adds nothing.
    expect(JSON.stringify(places)).not.toContain('3470000');
    await insertLead(database.db, { telefono: '+393470000103' });
    expect((await recordOfferSettings(database.db, settings({ OFFER_STARTS_AT: startsAt, FREE_PLACES_TOTAL: 10 }), placeKey)).backfilled).toBe(0);
  });
});
