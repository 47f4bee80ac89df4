import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EBOOK_TYPES } from '@guida/shared/lead-rules';
import { guideLinkPages } from '@guida/shared/messages';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

let api: TestApi;
let guidesDir: string;

/** A small distinct "PDF" per type, so the test sees which file was served. */
const fakePdf = (type: string) => Buffer.from(`%PDF-1.4\n% guide ${type}\n%%EOF\n`);

async function leadWithToken(ebookType: string) {
  const created = await request(api.app).post('/api/ebook-request').send(validLead({ ebookType }));
  const row = await api.db('download_tokens').where({ lead_id: created.body.id }).first();
  return { leadId: created.body.id as number, token: row.token as string };
}

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
    await api.db('download_tokens').where({ token }).update({ expires_at: api.db.raw("now() - interval '1 minute'") });
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
