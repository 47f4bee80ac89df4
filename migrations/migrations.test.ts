import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { migrationConfig } from './index';

const SPEC_TABLES = [
  'ebook_requests',
  'users',
  'page_views',
  'form_interactions',
  'section_views',
  'conversion_funnel',
  'gdpr_consents',
  'gdpr_data_requests',
  'cookie_consents',
];

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const tables = async () =>
  (await database.db('pg_tables').where({ schemaname: 'public' }).pluck('tablename')).filter(
    (name: string) => !name.startsWith('knex_'),
  );

describe('migrations', () => {
  it('create every table of the spec with its defaults', async () => {
    expect(await tables()).toEqual(expect.arrayContaining(SPEC_TABLES));
    const [lead] = await database.db('ebook_requests')
      .insert({ nome: 'A', cognome: 'B', email: 'a@b.it', telefono: '+393471234567' })
      .returning('*');
    expect(lead).toMatchObject({
      ebook_type: 'general',
      source: 'direct',
      gdpr_consent: false,
      marketing_consent: false,
      consent_version: '1.0',
      data_retention_notified: false,
    });
    const [request] = await database.db('gdpr_data_requests')
      .insert({ email: 'a@b.it', request_type: 'access' })
      .returning('*');
    expect(request.status).toBe('pending');
    const [cookies] = await database.db('cookie_consents').insert({ session_id: 's1' }).returning('*');
    expect(cookies).toMatchObject({ essential: true, analytics: false, marketing: false, preferences: false });
  });

  it('split the funnel rollup by campaign and variant, aggregate the days with raw rows again, and add the split back up when rolled back', async () => {
    const bySplit = { ...migrationConfig, name: '20261129090000_funnel_by_campaign_and_variant' };
    const counts = { landing: 3, form_view: 2, form_start: 1, form_submit: 1, success: 1 };
    await database.db.migrate.down(bySplit);
    await database.db('funnel_daily').insert([
      { day: '2026-11-01', landing_path: '/', utm_source: 'google', ...counts },
      { day: '2026-11-02', landing_path: '/', utm_source: 'google', ...counts },
    ]);
    await database.db('funnel_daily_days').insert([{ day: '2026-11-01' }, { day: '2026-11-02' }, { day: '2026-11-03' }]);
    // Raw rows start on 1 November (retention may have cut that day): 2 and 3 November are aggregated again.
    await database.db('conversion_funnel').insert({
      event_id: randomUUID(),
      session_id: 's1',
      step: 'landing',
      metadata: { path: '/' },
      timestamp: '2026-11-01T12:00:00+01:00',
    });

    await database.db.migrate.up(bySplit);
    const split = { utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '', hero_variant: '' };
    expect(await database.db('funnel_daily').where({ day: '2026-11-01' }).first()).toMatchObject({ ...split, ...counts });
    const aggregated = await database.db('funnel_daily_days').select(database.db.raw("to_char(day, 'YYYY-MM-DD') AS day"));
    expect(aggregated).toEqual([{ day: '2026-11-01' }]);
    await database.db('funnel_daily').insert({ day: '2026-11-01', landing_path: '/', utm_source: 'google', ...split, hero_variant: 'b', ...counts });

    await database.db.migrate.down(bySplit);
    const [summed] = await database.db('funnel_daily').where({ day: '2026-11-01' });
    expect(summed).toEqual({ day: expect.any(Date), landing_path: '/', utm_source: 'google', landing: 6, form_view: 4, form_start: 2, form_submit: 2, success: 2 });
    await database.db.migrate.up(bySplit);
    await database.db('funnel_daily').delete();
    await database.db('funnel_daily_days').delete();
    await database.db('conversion_funnel').delete();
  });

  it('add the funnel rollup\'s rows of utm_source "direct" to the day\'s "(direct)" rows, and keep them so when rolled back', async () => {
    const directSource = { ...migrationConfig, name: '20261130090000_direct_source_in_funnel_rollup' };
    const split = { utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '', hero_variant: '' };
    const counts = (landing: number) => ({ landing, form_view: landing, form_start: 1, form_submit: 1, success: 0 });
    await database.db.migrate.down(directSource);
    await database.db('funnel_daily').insert([
      { day: '2026-11-01', landing_path: '/', utm_source: '(direct)', ...split, ...counts(3) },
      { day: '2026-11-01', landing_path: '/', utm_source: 'direct', ...split, ...counts(2) },
      // No "(direct)" row of its own yet: the 'direct' row becomes it.
      { day: '2026-11-01', landing_path: '/', utm_source: 'direct', ...split, utm_medium: 'email', ...counts(1) },
      { day: '2026-11-02', landing_path: '/', utm_source: 'google', ...split, ...counts(4) },
    ]);

    await database.db.migrate.up(directSource);
    const rows = async () =>
      database.db('funnel_daily')
        .select(database.db.raw("to_char(day, 'YYYY-MM-DD') AS day"), 'utm_source', 'utm_medium', 'landing', 'form_start')
        .orderBy(['day', 'utm_source', 'utm_medium']);
    const merged = [
      { day: '2026-11-01', utm_source: '(direct)', utm_medium: '', landing: 5, form_start: 2 },
      { day: '2026-11-01', utm_source: '(direct)', utm_medium: 'email', landing: 1, form_start: 1 },
      { day: '2026-11-02', utm_source: 'google', utm_medium: '', landing: 4, form_start: 1 },
    ];
    expect(await rows()).toEqual(merged);

    await database.db.migrate.down(directSource);
    expect(await rows()).toEqual(merged);
    await database.db.migrate.up(directSource);
    await database.db('funnel_daily').delete();
  });

  // Before the older status migrations go down and up (they restore their own status lists).
  it('allow a held SMS, and send it (pending) when that migration is rolled back', async () => {
    const smsHeldStatus = { ...migrationConfig, name: '20261124200000_sms_held_status' };
    const [lead] = await database.db('ebook_requests')
      .insert({ nome: 'A', cognome: 'B', email: 'a@b.it', telefono: '+393471234570' })
      .returning('id');
    const [sms] = await database.db('sms_messages').insert({ lead_id: lead.id, status: 'held' }).returning('*');
    expect(sms.budget_exempt).toBe(false);

    await database.db.migrate.down(smsHeldStatus);
    expect(await database.db('sms_messages').where({ id: sms.id }).first()).toMatchObject({ status: 'pending' });
    expect(await database.db('sms_events').where({ sms_message_id: sms.id }).pluck('status')).toEqual(['pending']);
    await expect(database.db('sms_messages').where({ id: sms.id }).update({ status: 'held' })).rejects.toThrow(
      /sms_messages_status_check/,
    );

    await database.db.migrate.up(smsHeldStatus);
    await database.db('sms_messages').where({ id: sms.id }).update({ status: 'held' });
    // The older status migrations below go down too, and know nothing of held.
    await database.db('sms_messages').where({ id: sms.id }).delete();
  });

  it('allow the sending claim, and turn it into a retry when that migration is rolled back', async () => {
    const sendingStatus = { ...migrationConfig, name: '20261124090000_sending_status' };
    const [lead] = await database.db('ebook_requests')
      .insert({ nome: 'A', cognome: 'B', email: 'a@b.it', telefono: '+393471234568' })
      .returning('id');
    const [sms] = await database.db('sms_messages').insert({ lead_id: lead.id, status: 'sending' }).returning('id');
    const [crm] = await database.db('crm_deliveries')
      .insert({ lead_id: lead.id, event: 'lead.created', status: 'sending' })
      .returning('id');

    await database.db.migrate.down(sendingStatus);
    expect(await database.db('sms_messages').where({ id: sms.id }).first()).toMatchObject({ status: 'retrying' });
    expect(await database.db('sms_events').where({ sms_message_id: sms.id }).pluck('status')).toEqual(['retrying']);
    expect(await database.db('crm_deliveries').where({ id: crm.id }).first()).toMatchObject({ status: 'retrying' });
    await expect(database.db('sms_messages').where({ id: sms.id }).update({ status: 'sending' })).rejects.toThrow(
      /sms_messages_status_check/,
    );
    await expect(database.db('crm_deliveries').where({ id: crm.id }).update({ status: 'sending' })).rejects.toThrow(
      /crm_deliveries_status_check/,
    );

    await database.db.migrate.up(sendingStatus);
    await database.db('sms_messages').where({ id: sms.id }).update({ status: 'sending' });
    await database.db('crm_deliveries').where({ id: crm.id }).update({ status: 'sending' });
  });

  it('allow the email claim, and turn it into a retry when that migration is rolled back', async () => {
    const emailSendingStatus = { ...migrationConfig, name: '20261124120000_email_sending_status' };
    const [lead] = await database.db('ebook_requests')
      .insert({ nome: 'A', cognome: 'B', email: 'a@b.it', telefono: '+393471234569' })
      .returning('id');
    const [email] = await database.db('email_messages')
      .insert({ lead_id: lead.id, kind: 'guide-link', status: 'sending' })
      .returning('id');

    await database.db.migrate.down(emailSendingStatus);
    expect(await database.db('email_messages').where({ id: email.id }).first()).toMatchObject({ status: 'retrying' });
    await expect(database.db('email_messages').where({ id: email.id }).update({ status: 'sending' })).rejects.toThrow(
      /email_messages_status_check/,
    );

    await database.db.migrate.up(emailSendingStatus);
    await database.db('email_messages').where({ id: email.id }).update({ status: 'sending' });
  });

  it('hash the download tokens stored before hashing in place, so links already sent keep working', async () => {
    const hashedTokens = { ...migrationConfig, name: '20261124203000_repeat_requests_and_hashed_link_tokens' };
    await database.db.migrate.down(hashedTokens);
    const [lead] = await database.db('ebook_requests')
      .insert({ nome: 'A', cognome: 'B', email: 'a@b.it', telefono: '+393471234570' })
      .returning('id');
    const token = 'AbCdEfGhIjKlMnOpQrStUv';
    await database.db('download_tokens').insert({ lead_id: lead.id, token, expires_at: database.db.raw("now() + interval '30 days'") });

    await database.db.migrate.up(hashedTokens);
    const link = await database.db('download_tokens').where({ lead_id: lead.id }).first();
    expect(link).not.toHaveProperty('token');
    expect(link.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(await database.db('ebook_requests').where({ id: lead.id }).first('repeat_of')).toEqual({ repeat_of: null });
  });

  it('give leads that consented to marketing before it had a version of its own the form’s version', async () => {
    const marketingVersion = { ...migrationConfig, name: '20261126090000_marketing_consent_version' };
    await database.db.migrate.down(marketingVersion);
    const [given, refused] = await database.db('ebook_requests')
      .insert([
        { nome: 'A', cognome: 'B', email: 'a@b.it', telefono: '+393471234571', marketing_consent: true, consent_version: '1.0' },
        { nome: 'C', cognome: 'D', email: 'c@d.it', telefono: '+393471234572' },
      ])
      .returning('id');

    await database.db.migrate.up(marketingVersion);
    const versions = await database.db('ebook_requests')
      .whereIn('id', [given.id, refused.id])
      .orderBy('id')
      .pluck('marketing_consent_version');
    expect(versions).toEqual(['1.0', null]);
    // A consent without the version of its text, or a version without a consent, is refused.
    await expect(
      database.db('ebook_requests').where({ id: given.id }).update({ marketing_consent_version: null }),
    ).rejects.toThrow(/ebook_requests_marketing_consent_version_check/);
    await expect(
      database.db('ebook_requests').where({ id: refused.id }).update({ marketing_consent_version: '1.0' }),
    ).rejects.toThrow(/ebook_requests_marketing_consent_version_check/);
  });

  it('go down to nothing and up again', async () => {
    await database.db.migrate.rollback(migrationConfig, true);
    expect(await tables()).toEqual([]);
    await database.db.migrate.latest(migrationConfig);
    expect(await tables()).toEqual(expect.arrayContaining(SPEC_TABLES));
  });
});
