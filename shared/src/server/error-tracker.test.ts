import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import type { ErrorEvent } from '@sentry/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@guida/testing/wait-for';
import { reportError, scrubEvent, scrubText, startErrorTracking } from './error-tracker';

const PERSONAL = ['mario.rossi@example.it', '+39 347 700 0001', '3477000001', '0041 79 700 00 02'];

describe('scrubText', () => {
  it('replaces email addresses and phone numbers, whatever their spacing', () => {
    for (const personal of PERSONAL) expect(scrubText(`lead ${personal}, refused`)).toBe('lead [redacted], refused');
  });

  it('leaves dates, times, ids and status codes alone', () => {
    const text = 'lead 123456 at 2026-11-27T07:11:23Z: Twilio answered 429 (code 20429)';
    expect(scrubText(text)).toBe(text);
  });
});

describe('scrubEvent', () => {
  const event: ErrorEvent = {
    type: undefined,
    message: 'could not text +39 347 700 0001',
    exception: { values: [{ type: 'Error', value: "The 'To' number +393477000001 is not valid (mario.rossi@example.it)" }] },
    user: { ip_address: '203.0.113.7', email: 'mario.rossi@example.it' },
    request: {
      method: 'POST',
      url: 'https://guida.example.it/g/AbCdEfGhIjKlMnOpQrStUv?utm_source=mail&email=mario.rossi@example.it',
      query_string: 'email=mario.rossi@example.it',
      cookies: { guida_session: 'secret-session' },
      data: { nome: 'Mario', telefono: '+39 347 700 0001' },
      headers: { 'content-type': 'application/json', cookie: 'guida_session=secret-session', 'x-forwarded-for': '203.0.113.7' },
    },
    breadcrumbs: [{ category: 'http', message: 'POST to mario.rossi@example.it', data: { url: 'https://crm.example.com/hook?to=3477000001', status_code: 500 } }],
    extra: { lead: { telefono: '3477000001', id: 42 } },
    tags: { route: '/api/ebook-request' },
  };

  it('drops bodies, cookies, query strings, the user and most headers, and masks tokens in paths', () => {
    const scrubbed = scrubEvent(structuredClone(event));
    expect(scrubbed.user).toBeUndefined();
    expect(scrubbed.request).toEqual({
      method: 'POST',
      url: 'https://guida.example.it/g/[redacted]',
      headers: { 'content-type': 'application/json' },
    });
    expect(scrubbed.breadcrumbs?.[0]?.data).toEqual({ url: 'https://crm.example.com/hook', status_code: 500 });
    expect(scrubbed.tags).toEqual({ route: '/api/ebook-request' });
    expect(scrubbed.extra).toEqual({ lead: { telefono: '[redacted]', id: 42 } });
  });

  it('leaves nothing that looks like an email address or a phone number', () => {
    const sent = JSON.stringify(scrubEvent(structuredClone(event)));
    for (const personal of [...PERSONAL, '393477000001', 'Mario', 'secret-session', '203.0.113.7']) expect(sent).not.toContain(personal);
    expect(sent).toContain("The 'To' number [redacted] is not valid ([redacted])");
  });
});

describe('startErrorTracking', () => {
  let server: Server;
  const envelopes: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        envelopes.push((req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8'));
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('loads nothing and reports nothing without SENTRY_DSN', async () => {
    expect(await startErrorTracking({ NODE_ENV: 'test' }, 'guida-api')).toBeUndefined();
    reportError(new Error('nobody hears this'));
  });

  it('sends a reported error to the DSN, scrubbed', async () => {
    const { port } = server.address() as AddressInfo;
    const tracker = await startErrorTracking({ NODE_ENV: 'test', SENTRY_DSN: `http://publickey@127.0.0.1:${port}/7` }, 'guida-worker');
    expect(tracker).toBeDefined();
    reportError(new Error('Twilio refused +39 347 700 0001 for mario.rossi@example.it'), { queue: 'sms' });
    await tracker!.close(5000);

    const envelope = await waitFor(() => envelopes.find((body) => body.includes('"exception"')), { what: 'the error envelope' });
    expect(envelope).toContain('Twilio refused [redacted] for [redacted]');
    expect(envelope).toContain('"queue":"sms"');
    expect(envelope).toContain('"server_name":"guida-worker"');
    for (const personal of PERSONAL) expect(envelope).not.toContain(personal);
  });
});
