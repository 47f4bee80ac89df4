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

  it('go down to nothing and up again', async () => {
    await database.db.migrate.rollback(migrationConfig, true);
    expect(await tables()).toEqual([]);
    await database.db.migrate.latest(migrationConfig);
    expect(await tables()).toEqual(expect.arrayContaining(SPEC_TABLES));
  });
});
