import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../testing/test-api';

const opened: TestApi[] = [];
afterAll(async () => {
  for (const api of opened) await api.close();
});

describe('the pages the API renders itself', () => {
  it('name the configured provider in their footer (d.lgs. 70/2003 art. 7), REA and share capital when set', async () => {
    const api = await createTestApi({
      PRIVACY_CONTROLLER_NAME: 'Esempio Editore S.r.l.',
      PRIVACY_CONTROLLER_ADDRESS: 'Via Roma 1, 20100 Milano',
      PRIVACY_CONTROLLER_VAT: 'IT01234567890',
      PRIVACY_CONTROLLER_REA: 'MI-1234567',
      PRIVACY_CONTROLLER_SHARE_CAPITAL: '10.000 € i.v.',
    });
    opened.push(api);
    // An unknown guide link: one of the API's own Italian pages.
    const page = (await request(api.app).get('/g/AAAAAAAAAAAAAAAAAAAAAA')).text;
    expect(page).toContain('<footer><p>Servizio fornito da Esempio Editore S.r.l., Via Roma 1, 20100 Milano</p>');
    expect(page).toContain('<p>P. IVA IT01234567890 · REA MI-1234567 · Capitale sociale 10.000 € i.v.</p></footer>');
  });

  it('show what is still to configure on a local run without a provider', async () => {
    const api = await createTestApi();
    opened.push(api);
    const page = (await request(api.app).get('/g/AAAAAAAAAAAAAAAAAAAAAA')).text;
    expect(page).toContain('PRIVACY_CONTROLLER_NAME');
    expect(page).toContain('PRIVACY_CONTROLLER_VAT');
    expect(page).not.toContain('REA');
  });
});
