import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EBOOK_TYPES } from '@guida/shared/lead-rules';
import { guideLinkPages } from '@guida/shared/messages';
import { guideLinkToken, keyGuideLink } from '@guida/shared/server/guide-link-token';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

let api: TestApi;
let guidesDir: string;

/** A small distinct "PDF" per type, so the test sees which file was served. */
const fakePdf = (type: string) => Buffer.from(`%PDF-1.4\n% guide ${type}\n%%EOF\n`);

/** A lead whose link the worker has sent: keyed to the token it derived (as the worker does). */
async function leadWithToken(ebookType: string) {
  const created = await request(api.app).post('/api/ebook-request').send(validLead({ ebookType }));
  const leadId = created.body.id as number;
  const { token, hash } = guideLinkToken('guide-test-link-secret-0123456789abcdef', leadId);
  await keyGuideLink(api.db, leadId, hash);
  return { leadId, token };
}

const downloadCount = async (leadId: number) => ({
  count: (await api.db('download_tokens').where({ lead_id: leadId }).first()).download_count as number,
  rows: Number((await api.db('guide_downloads').where({ lead_id: leadId }).count({ n: '*' }).first())?.n),
});

const PHONE_BROWSER = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

beforeAll(async () => {
  guidesDir = mkdtempSync(path.join(tmpdir(), 'guides-'));
  for (const type of EBOOK_TYPES) writeFileSync(path.join(guidesDir, `${type}.pdf`), fakePdf(type));
  api = await createTestApi({ GUIDES_DIR: guidesDir });
});
afterAll(async () => {
  await api.close();
  rmSync(guidesDir, { recursive: true, force: true });
});

describe('GET /g/:token', () => {
  it.each(EBOOK_TYPES)('serves the %s guide to its lead and records the download', async (type) => {
    const { leadId, token } = await leadWithToken(type);
    const response = await request(api.app).get(`/g/${token}`).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['x-robots-tag']).toContain('noindex');
    expect(Buffer.compare(response.body as Buffer, fakePdf(type))).toBe(0);

    const tokenRow = await api.db('download_tokens').where({ lead_id: leadId }).first();
    expect(tokenRow.download_count).toBe(1);
    expect(tokenRow.first_downloaded_at).toBeInstanceOf(Date);
    expect(await api.db('guide_downloads').where({ lead_id: leadId }).count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('stores only the hash of the token: the stored value does not open the guide', async () => {
    const { leadId, token } = await leadWithToken('general');
    const row = await api.db('download_tokens').where({ lead_id: leadId }).first();
    expect(row).not.toHaveProperty('token');
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(token);
    expect((await request(api.app).get(`/g/${row.token_hash}`)).status).toBe(404);
    expect((await request(api.app).get(`/g/${token}`)).status).toBe(200);
  });

  it('counts a download once per visitor, however often they open the link', async () => {
    const { leadId, token } = await leadWithToken('general');
    for (let i = 0; i < 3; i += 1) {
      expect((await request(api.app).get(`/g/${token}`).set('User-Agent', PHONE_BROWSER)).status).toBe(200);
    }
    expect(await downloadCount(leadId)).toEqual({ count: 1, rows: 1 });
    // Another device (here: another browser) that was given the link counts once more.
    await request(api.app).get(`/g/${token}`).set('User-Agent', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1');
    expect(await downloadCount(leadId)).toEqual({ count: 2, rows: 2 });
  });

  it('serves but does not count a HEAD, a Range request or a link preview', async () => {
    const { leadId, token } = await leadWithToken('general');
    const head = await request(api.app).head(`/g/${token}`).set('User-Agent', PHONE_BROWSER);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/pdf');
    const range = await request(api.app).get(`/g/${token}`).set('User-Agent', PHONE_BROWSER).set('Range', 'bytes=0-7');
    expect(range.status).toBe(206);
    for (const bot of [
      'WhatsApp/2.23.20.0 A',
      'TelegramBot (like TwitterBot)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Twitterbot/1.0',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    ]) {
      expect((await request(api.app).get(`/g/${token}`).set('User-Agent', bot)).status).toBe(200);
    }
    expect(await downloadCount(leadId)).toEqual({ count: 0, rows: 0 });

    // A phone whose name ends in "bot" is a reader, not a bot.
    await request(api.app).get(`/g/${token}`).set('User-Agent', 'Mozilla/5.0 (Linux; Android 9; CUBOT X19) Chrome/120.0 Mobile');
    expect(await downloadCount(leadId)).toEqual({ count: 1, rows: 1 });
  });

  it('sends no referrer from its pages, whose address holds the token', async () => {
    const { token } = await leadWithToken('general');
    expect((await request(api.app).get(`/g/${token}`)).headers['referrer-policy']).toBe('no-referrer');
    expect((await request(api.app).get('/g/AAAAAAAAAAAAAAAAAAAAAA')).headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers an unknown or malformed token with an Italian 404 page', async () => {
    for (const token of ['AAAAAAAAAAAAAAAAAAAAAA', 'x', '..%2F..%2Fetc%2Fpasswd']) {
      const response = await request(api.app).get(`/g/${token}`);
      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.text).toContain(guideLinkPages.notFoundTitle);
      expect(response.text).toContain('lang="it"');
    }
  });

  it('answers an expired link with an Italian 410 page and records nothing', async () => {
    const { leadId, token } = await leadWithToken('general');
    await api.db('download_tokens').where({ lead_id: leadId }).update({ expires_at: api.db.raw("now() - interval '1 minute'") });
    const response = await request(api.app).get(`/g/${token}`);
    expect(response.status).toBe(410);
    expect(response.text).toContain(guideLinkPages.expiredTitle);
    expect(await api.db('guide_downloads').where({ lead_id: leadId }).first()).toBeUndefined();
  });

  it('answers 503 with an Italian page when the PDF is missing', async () => {
    const { token } = await leadWithToken('general');
    rmSync(path.join(guidesDir, 'general.pdf'));
    try {
      const response = await request(api.app).get(`/g/${token}`);
      expect(response.status).toBe(503);
      expect(response.text).toContain(guideLinkPages.unavailableTitle);
    } finally {
      writeFileSync(path.join(guidesDir, 'general.pdf'), fakePdf('general'));
    }
  });
});
