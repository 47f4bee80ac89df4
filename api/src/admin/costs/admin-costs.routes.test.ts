import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages } from '@guida/shared/messages';
import type { AdSpendImport, AdSpendList } from '@guida/shared/schemas/admin-costs';
import { createUser, signIn, signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;

beforeAll(async () => {
  api = await createTestApi();
  admin = await signInAsAdmin(api);
});
afterAll(async () => {
  await api.close();
});

const upload = (csv: string | Buffer, type = 'text/csv; charset=utf-8') =>
  admin.agent.post('/api/admin/ad-spend/import').set('X-CSRF-Token', admin.csrfToken).set('Content-Type', type).send(csv);

const stored = async () =>
  (
    await api.db('ad_spend')
      .orderBy(['day', 'utm_source', 'utm_campaign'])
      .select(api.db.raw(`to_char(day, 'YYYY-MM-DD') AS day`), 'utm_source', 'utm_campaign', 'amount', 'currency')
  ).map((row) => [row.day, row.utm_source, row.utm_campaign, row.amount, row.currency]);

const GOOD = '\uFEFFData;Sorgente;Campagna;Importo;Valuta\r\n01/11/2026;google;autunno;1.234,56;EUR\r\n01/11/2026;meta;autunno;€ 80,00;\r\n02/11/2026;google;autunno;99,90;EUR\r\n';

describe('POST /api/admin/ad-spend/import', () => {
  it('is for signed-in admins, with the CSRF token, from the site itself', async () => {
    expect((await request(api.app).post('/api/admin/ad-spend/import').set('Content-Type', 'text/csv').send(GOOD)).status).toBe(401);

    const noToken = await admin.agent.post('/api/admin/ad-spend/import').set('Content-Type', 'text/csv').send(GOOD);
    expect(noToken.status).toBe(403);
    expect(noToken.body).toEqual({ message: adminMessages.csrf });

    const crossSite = await upload(GOOD).set('Origin', 'https://attacker.example');
    expect(crossSite.status).toBe(403);

    // An admin whose rights were taken away since signing in.
    const user = await createUser(api);
    const revoked = await signIn(api, user);
    await api.db('users').where({ id: user.id }).update({ is_admin: false });
    const notAdmin = await revoked.agent
      .post('/api/admin/ad-spend/import')
      .set('X-CSRF-Token', revoked.csrfToken)
      .set('Content-Type', 'text/csv')
      .send(GOOD);
    expect(notAdmin.status).toBe(403);
    expect(await stored()).toEqual([]);
  });

  it('imports a good file, audited, and says how many rows are new', async () => {
    const response = await upload(GOOD);
    expect(response.status).toBe(200);
    const body = response.body as AdSpendImport;
    expect(body).toMatchObject({ rows: 3, inserted: 3, replaced: 0, firstDay: '2026-11-01', lastDay: '2026-11-02' });
    expect(body.message).toBe('Importate 3 righe di spesa dal 01/11/2026 al 02/11/2026: 3 nuove, 0 sostituite.');
    expect(await stored()).toEqual([
      ['2026-11-01', 'google', 'autunno', '1234.56', 'EUR'],
      ['2026-11-01', 'meta', 'autunno', '80.00', 'EUR'],
      ['2026-11-02', 'google', 'autunno', '99.90', 'EUR'],
    ]);
    const entry = await api.db('admin_audit_log').where({ action: 'import_ad_spend' }).first();
    expect(entry).toMatchObject({
      user_id: admin.user.id,
      target_type: 'ad_spend_import',
      target_id: body.importId,
      details: { rows: 3, inserted: 3, replaced: 0, firstDay: '2026-11-01', lastDay: '2026-11-02' },
    });
    expect(await api.db('ad_spend').distinct('import_id', 'imported_by')).toEqual([{ import_id: body.importId, imported_by: admin.user.id }]);
  });

  it('replaces the amount of a day and campaign imported again, and adds the new ones', async () => {
    const response = await upload('data,utm_source,utm_campaign,importo,valuta\n2026-11-02,google,autunno,120.5,EUR\n2026-11-03,google,autunno,10,USD\n');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ rows: 2, inserted: 1, replaced: 1 });
    expect(response.body.message).toBe('Importate 2 righe di spesa dal 02/11/2026 al 03/11/2026: 1 nuove, 1 sostituite.');
    expect(await stored()).toEqual([
      ['2026-11-01', 'google', 'autunno', '1234.56', 'EUR'],
      ['2026-11-01', 'meta', 'autunno', '80.00', 'EUR'],
      ['2026-11-02', 'google', 'autunno', '120.50', 'EUR'],
      ['2026-11-03', 'google', 'autunno', '10.00', 'USD'],
    ]);
  });

  it('imports nothing from a file with a bad row, and names its line in Italian', async () => {
    const before = await stored();
    const response = await upload('data;utm_source;utm_campaign;importo\n04/11/2026;google;autunno;5\n02/11/2026;google;autunno;1\n05/11/2026;google;autunno;12,3,4\n');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      message: 'Il file contiene un errore: non è stato importato nulla. Correggilo e carica di nuovo il file intero.',
      errors: { 4: 'Riga 4: importo non valido («12,3,4»)' },
    });
    // Neither the new day of line 2 nor the replacement of line 3.
    expect(await stored()).toEqual(before);
    expect(await api.db('admin_audit_log').where({ action: 'import_ad_spend' }).count({ n: '*' }).first()).toEqual({ n: 2 });
  });

  it('lists the first errors of a file with many and counts the rest', async () => {
    const rows = Array.from({ length: 25 }, (_, index) => `${index + 1}/10/2026;google;x;-1`);
    const response = await upload(['data;utm_source;utm_campaign;importo', ...rows].join('\n'));
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.errors)).toHaveLength(21);
    expect(response.body.errors[2]).toBe('Riga 2: importo negativo («-1»)');
    expect(response.body.errors.altri).toBe('… e altri 5 errori.');
  });

  it('refuses a file too large with 413, another type with 415, and a file not in UTF-8, in Italian', async () => {
    const large = await upload(`data;utm_source;utm_campaign;importo\n${'01/11/2026;google;autunno;1\n'.repeat(40_000)}`);
    expect(large.status).toBe(413);
    expect(large.body.message).toMatch(/^Il file è troppo grande: al massimo 1 MB/);

    const json = await admin.agent
      .post('/api/admin/ad-spend/import')
      .set('X-CSRF-Token', admin.csrfToken)
      .send({ csv: GOOD });
    expect(json.status).toBe(415);
    expect(json.body.message).toBe('Carica un file CSV (testo separato da «;» o «,»).');

    const latin1 = await upload(Buffer.from('data;utm_source;utm_campaign;importo\n01/11/2026;google;caff\xe8;1\n', 'latin1'));
    expect(latin1.status).toBe(400);
    expect(latin1.body.message).toMatch(/^Il file non è in UTF-8/);
  });
});

describe('GET /api/admin/ad-spend', () => {
  it('lists the spend of the chosen days, newest first, with who imported it', async () => {
    await api.db('ad_spend').insert({
      day: api.db.raw(`(now() AT TIME ZONE 'Europe/Rome')::date`),
      utm_source: 'google',
      utm_campaign: 'oggi',
      amount: '7.00',
      currency: 'EUR',
      import_id: '00000000-0000-4000-8000-000000000000',
      imported_by: null,
    });
    const response = await admin.agent.get('/api/admin/ad-spend?days=30');
    expect(response.status).toBe(200);
    const list = response.body as AdSpendList;
    expect(list.days).toBe(30);
    expect(list.rows[0]).toMatchObject({ utmSource: 'google', utmCampaign: 'oggi', amount: 7, currency: 'EUR', importedBy: null });
    expect(list.more).toBe(0);

    const wrong = await admin.agent.get('/api/admin/ad-spend?days=2');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Periodo non valido: scegli 30, 90 o 365 giorni.');
  });
});
