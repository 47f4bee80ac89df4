import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseEnv } from 'node:util';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as gdprTexts from '@guida/shared/gdpr-messages';
import * as messages from '@guida/shared/messages';
import { keyWithdrawalLink, withdrawalLinkToken } from '@guida/shared/server/marketing-withdrawal-link';
import { TEST_LINK_TOKEN_SECRET, insertLead } from '@guida/testing/lead-fixture';
import { createSiteFixture } from '../testing/site-fixture';
import { createTestApi, type TestApi } from '../testing/test-api';

/**
 * Generated hostile input over every public endpoint: a seeded PRNG picks endpoints, bodies,
 * encodings, header sets and field values (wrong types, huge and odd unicode strings, control
 * characters, prototype keys, deep nesting, malformed JSON and UTF-8, duplicated keys, wrong
 * content types) so every run sends the same requests. Bar: no 5xx, and every error the API
 * gives is JSON with one of our Italian messages (pages: the Italian HTML page).
 */

/**
 * The configuration `npm start` runs with, as far as a public request meets it: every rate
 * limit, byte and SMS budget, the challenge, the proxies trusted and the offer, from
 * .env.example. The suite holds on these, never on looser ones (issue 28).
 */
function defaultConfiguration(): Record<string, string> {
  const example = parseEnv(readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8'));
  const facing = /RATE_LIMIT|_PER_|BUDGET|^CHALLENGE_|^ANALYTICS_|^LIVE_STATS_|^OFFER_|^FREE_PLACES_|^SOCIAL_PROOF_|^TRUST_PROXY$|^BEHIND_LOCAL_PROXY$/;
  return Object.fromEntries(Object.entries(example).filter((entry): entry is [string, string] => Boolean(entry[1]) && facing.test(entry[0])));
}

const SEED = 20_261_124;
const REQUESTS = 10_500;
const AUTH_TOKEN = 'f3c1d2e4a5b60718293a4b5c6d7e8f90';
const PUBLIC_BASE_URL = 'https://guida.example.it';

/** Mulberry32: small, fast and deterministic. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return {
    next,
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
  };
}
type Random = ReturnType<typeof prng>;

/** Every Italian text the API may answer with (our message objects, flattened). */
function knownMessages(): Set<string> {
  const found = new Set<string>([
    'Inserisci il nome utente',
    'Inserisci la password',
    'Data non valida (AAAA-MM-GG)',
    'Nessuna scelta sui cookie registrata.',
  ]);
  const collect = (value: unknown) => {
    if (typeof value === 'string') found.add(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(messages);
  collect(gdprTexts);
  return found;
}

const ENGLISH = /\b(invalid|expected|received|too (big|small)|required|must|unexpected|error|undefined|null|string|number)\b/i;

const HOSTILE_STRINGS = [
  '',
  ' ',
  'a',
  'Mario',
  "D'Angelo-Rossi",
  '\u0000',
  'Ma\u0000rio',
  '\u0001\u0002\u0003\u001b[31m',
  '\u007f',
  'riga\r\nnuova',
  '\t\t',
  '\u202eoiraM',
  'مرحبا بالعالم',
  'שלום',
  '😀🚀👨‍👩‍👧‍👦',
  'e\u0301\u0301\u0301\u0301',
  'Z̸̡̢͓̈́a̷̛͎l̶̨̛g̵o̴',
  '\u200b\u200c\u200d\ufeff',
  '\ud800',
  '\udfff\ud800',
  'x'.repeat(81),
  'x'.repeat(300),
  'x'.repeat(2049),
  '😀'.repeat(5000),
  "'; DROP TABLE ebook_requests; --",
  '<script>alert(1)</script>',
  '=HYPERLINK("http://evil.example")',
  '${7*7}{{7*7}}',
  '../../etc/passwd',
  '//evil.example',
  'Vai su bit.ly/3xYzAb',
  '%00',
  '\\u0000',
  'true',
  '1e400',
  '__proto__',
];

const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -0,
  Number.MAX_SAFE_INTEGER,
  [],
  ['Mario'],
  [null, [null]],
  {},
  { a: 1 },
  { __proto__: { isAdmin: true } },
  { toString: 'x', valueOf: 1 },
];

function hostileValue(random: Random): unknown {
  if (random.chance(0.6)) return random.pick(HOSTILE_STRINGS);
  if (random.chance(0.1)) return 'x'.repeat(random.int(24_000));
  if (random.chance(0.1)) return deepNesting(random, 50 + random.int(3000));
  return random.pick(HOSTILE_VALUES);
}

function deepNesting(random: Random, depth: number): unknown {
  let value: unknown = random.pick(['x', 1, null]);
  for (let level = 0; level < depth; level += 1) value = random.chance(0.5) ? [value] : { a: value };
  return value;
}

const session = (random: Random) =>
  Array.from({ length: 21 }, () => random.pick([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'])).join('');

let phoneCounter = 0;
const phone = () => {
  phoneCounter += 1;
  return `+39 347 ${String(1_000_000 + phoneCounter).slice(-7)}`;
};

/** Valid bodies, the starting point of each mutation. */
const VALID_BODIES: Record<string, (random: Random) => Record<string, unknown>> = {
  lead: (random) => ({
    nome: 'Mario',
    cognome: 'Rossi',
    email: `mario.${random.int(1e9)}@example.it`,
    telefono: phone(),
    gdprConsent: true,
    marketingConsent: random.chance(0.5),
    ebookType: 'general',
    source: 'landing-page',
    utmSource: 'google',
    utmMedium: 'cpc',
    utmCampaign: 'autunno',
    utmTerm: 'guida',
    utmContent: 'banner',
    gclid: 'abc',
    fbclid: 'def',
    landingPath: '/trading-svizzera',
    // A choice nobody recorded: the insert looks it up and keeps no click id (decision 049).
    cookieConsentSessionId: session(random),
  }),
  gdpr: (random) => ({
    email: `anna.${random.int(1e9)}@example.it`,
    requestType: random.pick(['access', 'deletion', 'portability', 'rectification']),
    details: 'Il cognome corretto è Rossi',
  }),
  'page-view': (random) => ({
    sessionId: session(random),
    path: '/',
    referrer: 'https://www.google.com/',
    userAgent: 'Mozilla/5.0',
    language: 'it-IT',
    screenResolution: '390x844',
    device: 'Mobile',
    browser: 'Chrome',
    os: 'Android',
  }),
  conversion: (random) => ({
    sessionId: session(random),
    step: 'form_view',
    metadata: { path: '/', referrer: null, utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'x' },
  }),
  'section-view': (random) => ({ sessionId: session(random), section: 'faq', timeSpent: 12, path: '/' }),
  'form-interaction': (random) => ({
    sessionId: session(random),
    action: 'start_typing',
    fieldName: 'nome',
    timeOnPage: 10,
    errorMessage: null,
    scrollDepth: 40,
    path: '/',
  }),
  consent: (random) => ({ sessionId: session(random), analytics: true, marketing: false, preferences: random.chance(0.5) }),
  // Mostly not well-formed: a well-formed attempt costs an argon2 verification, and the
  // admin tests cover those.
  login: (random) => ({
    username: random.chance(0.2) ? `admin${random.int(1000)}` : hostileValue(random),
    password: random.chance(0.2) ? 'una-password-sbagliata' : hostileValue(random),
  }),
  sms: () => ({ MessageSid: `SM${'0'.repeat(32)}`, MessageStatus: 'delivered' }),
};

const ANALYTICS_TYPES = ['page-view', 'conversion', 'section-view', 'form-interaction'] as const;

/** The marketing withdrawal link of a lead each test API holds (see beforeAll): withdrawals happen too. */
let withdrawalToken = '';

function mutateObject(random: Random, body: Record<string, unknown>): Record<string, unknown> {
  const mutated: Record<string, unknown> = { ...body };
  const keys = Object.keys(mutated);
  const rounds = 1 + random.int(3);
  for (let round = 0; round < rounds; round += 1) {
    const roll = random.next();
    if (roll < 0.6 && keys.length > 0) mutated[random.pick(keys)] = hostileValue(random);
    else if (roll < 0.7 && keys.length > 0) delete mutated[random.pick(keys)];
    else if (roll < 0.85) {
      // Own properties named like the prototype's: JSON.parse makes them data properties.
      Object.defineProperty(mutated, random.pick(['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString']), {
        value: random.pick([{ isAdmin: true }, { polluted: 1 }, 'x', null, []]),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    } else mutated[random.pick(['extra', 'website', 'isAdmin', 'id', 'createdAt', 'x'.repeat(200)])] = hostileValue(random);
  }
  return mutated;
}

interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The endpoint family, for the report. */
  family: string;
}

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser sends it). */
function percentEncode(text: string) {
  try {
    return encodeURIComponent(text);
  } catch {
    // Lone surrogates: encodeURIComponent refuses them.
    return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

function formEncode(random: Random, body: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
    parts.push(`${percentEncode(key)}=${percentEncode(text)}`);
    // Repeated fields become arrays.
    if (random.chance(0.05)) parts.push(`${percentEncode(key)}=${percentEncode(text)}`);
  }
  // Broken percent-encoding, invalid UTF-8 and odd separators.
  if (random.chance(0.05)) parts.push('%ZZ=%E0%A4%A', 'nome=%ED%A0%80%FF', 'a[b][c]=d', '=', '&&', 'cognome=%00');
  return parts.join('&');
}

/** The whole body, sometimes broken at the byte level. */
function encodeBody(random: Random, body: Record<string, unknown>, form: boolean): { type: string; bytes: Buffer } {
  const roll = random.next();
  if (form) return { type: FORM_TYPE, bytes: Buffer.from(formEncode(random, body)) };
  const json = JSON.stringify(body) ?? '{}';
  if (roll < 0.7) return { type: JSON_TYPE, bytes: Buffer.from(json) };
  if (roll < 0.75) return { type: JSON_TYPE, bytes: Buffer.from(json.slice(0, random.int(json.length))) };
  if (roll < 0.8) {
    // Malformed UTF-8: lone continuation bytes, overlong NUL, a cut multi-byte sequence.
    const bytes = Buffer.from(json);
    const at = 1 + random.int(Math.max(1, bytes.length - 2));
    const bad = Buffer.from(random.pick([[0xff, 0xfe], [0xc0, 0x80], [0xe2, 0x82], [0x80], [0xed, 0xa0, 0x80]]));
    return { type: JSON_TYPE, bytes: Buffer.concat([bytes.subarray(0, at), bad, bytes.subarray(at)]) };
  }
  if (roll < 0.86) {
    // A duplicated key: the second copy carries the hostile value.
    const keys = Object.keys(body);
    const key = keys.length ? random.pick(keys) : 'nome';
    const duplicate = `${JSON.stringify(key)}:${JSON.stringify(hostileValue(random)) ?? 'null'}`;
    const text = json === '{}' ? `{${duplicate}}` : `${json.slice(0, -1)},${duplicate}}`;
    return { type: JSON_TYPE, bytes: Buffer.from(text) };
  }
  if (roll < 0.9) {
    return {
      type: JSON_TYPE,
      bytes: Buffer.from(
        random.pick([
          '[]',
          '[{}]',
          'null',
          '"ciao"',
          '123',
          'true',
          '',
          '{',
          '{"a":}',
          '{"a":1,}',
          "{'a':1}",
          '{"a":NaN}',
          '\ufeff{}',
          '{"__proto__":{"isAdmin":true}}',
          '{"constructor":{"prototype":{"isAdmin":true}}}',
          `${'['.repeat(5000)}${']'.repeat(5000)}`,
          `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
        ]),
      ),
    };
  }
  return {
    type: random.pick([
      'text/plain',
      'text/plain;charset=UTF-8',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json; charset=nope',
      'application/csp-report',
      'application/x-www-form-urlencoded',
      'application/vnd.api+json',
      '*/*',
      'json',
      '',
    ]),
    bytes: Buffer.from(json),
  };
}

/** Headers a browser, a proxy or an attacker might send. */
function headersFor(random: Random): Record<string, string> {
  const headers: Record<string, string> = {};
  // Spread over many client addresses so per-client limits do not hide most answers; some from
  // many /64s of one IPv6 /48 or many addresses of one IPv4 /24 (their network's limits).
  const spread = random.next();
  if (spread < 0.4) headers['X-Forwarded-For'] = `203.0.${random.int(256)}.${random.int(256)}`;
  else if (spread < 0.8) headers['X-Forwarded-For'] = `2001:db8:${random.int(65536).toString(16)}::${random.int(65536).toString(16)}`;
  else if (spread < 0.9) headers['X-Forwarded-For'] = `2001:db8:48:${random.int(65536).toString(16)}::${random.int(65536).toString(16)}`;
  else headers['X-Forwarded-For'] = `198.51.100.${random.int(256)}`;
  if (random.chance(0.03)) headers['X-Forwarded-For'] = random.pick(['garbage', '999.1.1.1', ', ,', '1.2.3.4, 5.6.7.8, ::1', 'x'.repeat(2000)]);
  if (random.chance(0.5)) headers.Accept = random.pick(['application/json', '*/*', 'text/html', 'text/html,application/json;q=0.9', 'image/*', '']);
  const site = random.next();
  if (site < 0.1) headers['Sec-Fetch-Site'] = random.pick(['cross-site', 'same-origin', 'same-site', 'none', 'CROSS-SITE', 'garbage', '']);
  else if (site < 0.2) headers.Origin = random.pick([PUBLIC_BASE_URL, 'https://evil.example', 'null', 'http://127.0.0.1', 'garbage', '']);
  if (random.chance(0.05)) headers['X-Request-Id'] = random.pick(['short', 'a'.repeat(100), '../../x', 'ok-request-id-123']);
  if (random.chance(0.05)) headers.Cookie = random.pick(['__Host-guida_admin=%%%', 'a=b; a=c', 'x'.repeat(4000), '=;=;']);
  if (random.chance(0.03)) headers['Accept-Encoding'] = random.pick(['br', 'gzip;q=0', 'x-unknown', 'identity;q=0']);
  if (random.chance(0.02)) headers['Content-Encoding'] = random.pick(['gzip', 'deflate', 'br', 'x-compress', 'identity']);
  if (random.chance(0.03)) headers['X-Twilio-Signature'] = random.pick(['', 'x', 'a'.repeat(300)]);
  return headers;
}

const ODD_PATHS = [
  '/',
  '//',
  '//evil.example/',
  '/\\evil.example/',
  '/trading-svizzera/',
  '/trading-svizzera//',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/..%2f..%2fetc%2fpasswd',
  '/%00',
  '/%',
  '/%E0%A4%A',
  '/%ff%fe',
  '/assets/../index.html',
  '/assets/app-abc123.js?x=%00',
  '/index.html',
  '/admin/../../x',
  '/admin-login',
  '/admin/dashboard?q=%00',
  '/grazie-italia?utm_source=<script>',
  `/${'a'.repeat(3000)}`,
  '/api',
  '/api/',
  '/api/nulla',
  '/api/admin',
  '/api/admin/leads?q=%00',
  '/api/admin/leads?from=2026-13-45',
  '/api/admin/session',
  '/gdpr/conferma/%00',
  '/gdpr/conferma/not-a-token',
  '/gdpr/export/x?format=csv',
  '/revoca-marketing',
  '/revoca-marketing/',
  '/revoca-marketing/%00/x',
  '/metrics',
  '/readyz',
  '/healthz',
  '/g/',
  '/sitemap.xml',
  '/robots.txt',
  '/?__proto__[x]=1',
  '/?a=1&a=2&a[]=3',
];

const LIVE_STATS_PATHS = ['/', '/trading-svizzera', '', '%00', '/\u0000', '%2F%00', 'x', '//evil', `/${'x'.repeat(500)}`, '/😀', '%ff'];

function probe(random: Random): Probe {
  const headers = headersFor(random);
  const roll = random.int(1000);
  const withBody = (family: string, method: string, path: string, body: Record<string, unknown>, form = false): Probe => {
    const encoded = encodeBody(random, random.chance(0.85) ? mutateObject(random, body) : body, form);
    if (encoded.type) headers['Content-Type'] = encoded.type;
    if (random.chance(0.05)) {
      // Really compressed, as no browser sends it: what would stretch a limit counted on the bytes received.
      const [encoding, compress] = random.pick([['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync], ['GZIP', gzipSync]] as const);
      headers['Content-Encoding'] = encoding;
      return { family, method, path, headers, body: compress(encoded.bytes) };
    }
    return { family, method, path, headers, body: encoded.bytes };
  };
  // The widget's field, as a form whose script ran in part (or a bot) would send it.
  const withSolution = (body: Record<string, unknown>) =>
    random.chance(0.2) ? { ...body, altcha: random.pick(['', 'x', 'eyJjaGFsbGVuZ2UiOnt9fQ==', 'A'.repeat(5000), '%00', ['a', 'b']]) } : body;

  if (roll < 230) return withBody('lead json', 'POST', '/api/ebook-request', withSolution(VALID_BODIES.lead!(random)));
  if (roll < 330) {
    const body = VALID_BODIES.lead!(random);
    body.gdprConsent = random.pick(['on', 'true', '1', 'no', '']);
    if (random.chance(0.5)) headers.Accept = 'text/html';
    if (random.chance(0.5)) headers.Referer = random.pick([`${PUBLIC_BASE_URL}/trading-svizzera?utm_source=x`, 'https://evil.example/?utm_source=x', 'garbage', 'http://127.0.0.1/%00']);
    return withBody('lead form', 'POST', '/api/ebook-request', withSolution(body), true);
  }
  if (roll < 440) return withBody('gdpr', 'POST', '/api/gdpr/requests', withSolution(VALID_BODIES.gdpr!(random)), random.chance(0.3));
  if (roll < 640) {
    const type = random.pick(ANALYTICS_TYPES);
    return withBody(`analytics ${type}`, 'POST', `/api/analytics/${type}`, VALID_BODIES[type]!(random));
  }
  if (roll < 700) {
    const events = Array.from({ length: 1 + random.int(random.chance(0.1) ? 150 : 5) }, () => {
      const type = random.pick(ANALYTICS_TYPES);
      const event = { type, ...VALID_BODIES[type]!(random) };
      return random.chance(0.3) ? mutateObject(random, event) : event;
    });
    return withBody('analytics batch', 'POST', '/api/analytics/batch', { events: random.chance(0.1) ? hostileValue(random) : events });
  }
  if (roll < 760) return withBody('consent post', 'POST', '/api/cookie-consent', VALID_BODIES.consent!(random));
  if (roll < 790) {
    const id = random.pick([session(random), 'short', '%00', 'x'.repeat(300), '..%2F..', '😀', '%E0%A4%A', 'a b']);
    return { family: 'consent get', method: 'GET', path: `/api/cookie-consent/${id}`, headers };
  }
  if (roll < 830) {
    const value = random.pick(LIVE_STATS_PATHS);
    const query = random.pick([`path=${encodeURIComponent(value)}`, `path=${value}`, 'path[]=/&path[]=/x', 'path[a]=b', '', 'path=/&path=/x', 'x=1']);
    return { family: 'live-stats', method: 'GET', path: `/api/live-stats?${query}`, headers };
  }
  if (roll < 860) {
    const token = random.pick(['AAAAAAAAAAAAAAAAAAAAAA', '%00', 'x', 'x'.repeat(500), '..%2F..%2Fetc%2Fpasswd', '%E0%A4%A', '😀', session(random)]);
    return { family: 'guide', method: random.pick(['GET', 'HEAD']), path: `/g/${token}`, headers };
  }
  if (roll < 890) {
    const params = random.chance(0.7) ? mutateObject(random, VALID_BODIES.sms!(random)) : VALID_BODIES.sms!(random);
    const form = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value) ?? '']));
    const query = random.pick(['', '?sms=1', '?sms=abc', '?sms=-1', '?sms=99999999999', '?sms[]=1']);
    if (random.chance(0.6)) {
      headers['X-Twilio-Signature'] = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_BASE_URL}/api/sms/status${query}`, form);
    }
    headers['Content-Type'] = random.chance(0.9) ? FORM_TYPE : JSON_TYPE;
    const body = Buffer.from(new URLSearchParams(form).toString());
    return { family: 'sms status', method: 'POST', path: `/api/sms/status${query}`, headers, body };
  }
  if (roll < 902) return withBody('admin login', 'POST', '/api/admin/login', VALID_BODIES.login!(random), random.chance(0.2));
  if (roll < 930) {
    const path = random.pick(['/api/admin/leads', '/api/admin/leads/1', '/api/admin/leads/export.csv', '/api/admin/queues', '/api/admin/reports/funnel', '/api/admin/data-requests']);
    return { family: 'admin (signed out)', method: random.pick(['GET', 'POST', 'DELETE']), path: `${path}?q=%00&from=x`, headers };
  }
  if (roll < 955) {
    const path = random.pick(['/api/ebook-request', '/api/gdpr/requests', '/api/analytics/batch', '/api/cookie-consent', '/api/sms/status']);
    return { family: 'wrong method', method: random.pick(['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']), path, headers };
  }
  if (roll < 975) {
    // The withdrawal link of every email to a lead: the page, its button, a mail client's one-click POST.
    const token = random.pick([
      withdrawalToken,
      withdrawalToken.slice(0, 21),
      `${withdrawalToken}x`,
      'AAAAAAAAAAAAAAAAAAAAAA',
      '%00',
      'x'.repeat(500),
      '..%2F..%2Fetc%2Fpasswd',
      '%E0%A4%A',
      '😀',
      session(random),
    ]);
    const path = `/revoca-marketing/${token}${random.pick(['', '', '?a=1', '/', '?__proto__[x]=1'])}`;
    const method = random.pick(['GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT']);
    if (method !== 'POST') return { family: 'marketing withdrawal', method, path, headers };
    return withBody('marketing withdrawal', 'POST', path, { 'List-Unsubscribe': 'One-Click' }, random.chance(0.5));
  }
  return { family: 'site and unknown paths', method: random.pick(['GET', 'GET', 'HEAD', 'POST']), path: random.pick(ODD_PATHS), headers };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function send(agent: Agent, port: number, request: Probe): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: request.method,
        // The raw bytes of a request line cannot hold spaces or non-ASCII: sent as a browser would.
        path: request.path.replace(/[^\x21-\x7e]/g, (char) => percentEncode(char)),
        headers: { ...request.headers, ...(request.body ? { 'Content-Length': String(request.body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** What is wrong with an answer, or null when it meets the bar. */
function problemWith(request: Probe, answer: Answer, known: Set<string>): string | null {
  if (answer.status >= 500) return `status ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`;
  if (answer.status < 400 || request.method === 'HEAD') return null;
  const type = answer.headers['content-type'] ?? '';
  if (type.startsWith('text/html')) {
    return answer.body.toString('utf8').includes('<html lang="it">') ? null : 'an HTML error page that is not the Italian one';
  }
  if (!type.startsWith('application/json')) return `a ${answer.status} answered as "${type}"`;
  let parsed: { message?: unknown; errors?: Record<string, unknown> };
  try {
    parsed = JSON.parse(answer.body.toString('utf8')) as typeof parsed;
  } catch {
    return 'an error body that is not JSON';
  }
  const texts = [parsed.message, ...Object.values(parsed.errors ?? {})];
  for (const text of texts) {
    if (typeof text !== 'string') return `a message that is not text: ${JSON.stringify(parsed).slice(0, 200)}`;
    if (!known.has(text) || ENGLISH.test(text)) return `not one of our Italian messages: "${text}"`;
  }
  return null;
}

async function run(api: TestApi, count: number, seed: number, options: { singleClient?: boolean; oneNetwork?: boolean } = {}) {
  const server: Server = api.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const random = prng(seed);
  const known = knownMessages();
  const histogram = new Map<number, number>();
  const families = new Map<string, number>();
  const busyMs = new Map<string, number>();
  const problems = new Map<string, string>();
  const probes = Array.from({ length: count }, () => {
    const next = probe(random);
    if (options.singleClient) delete next.headers['X-Forwarded-For'];
    if (options.oneNetwork) next.headers['X-Forwarded-For'] = `2001:db8:4848:${random.int(65536).toString(16)}::1`;
    return next;
  });
  let cursor = 0;
  const startedAt = performance.now();
  const cpuBefore = process.cpuUsage();
  const workers = Array.from({ length: 8 }, async () => {
    while (cursor < probes.length) {
      const request = probes[cursor]!;
      cursor += 1;
      const startedAt = performance.now();
      const answer = await send(agent, port, request);
      busyMs.set(request.family, (busyMs.get(request.family) ?? 0) + Math.round(performance.now() - startedAt));
      histogram.set(answer.status, (histogram.get(answer.status) ?? 0) + 1);
      families.set(request.family, (families.get(request.family) ?? 0) + 1);
      const problem = problemWith(request, answer, known);
      if (problem) {
        const key = `${request.family}: ${problem}`;
        if (!problems.has(key)) {
          problems.set(key, `${request.method} ${request.path} ${JSON.stringify(request.headers)} ${request.body?.toString('utf8').slice(0, 300) ?? ''}`);
        }
      }
    }
  });
  try {
    await Promise.all(workers);
  } finally {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
  const cpu = process.cpuUsage(cpuBefore);
  const took = `${Math.round(performance.now() - startedAt)} ms, API and client CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms`;
  const sorted = (map: Map<string | number, number>) => Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : 1)));
  console.info(
    `hostile input: ${count} requests (seed ${seed}) in ${took}\n  statuses ${JSON.stringify(sorted(histogram))}\n  endpoints ${JSON.stringify(sorted(families))}\n  ms spent ${JSON.stringify(sorted(busyMs))}`,
  );
  return { histogram, problems: [...problems].map(([problem, example]) => `${problem}\n    e.g. ${example}`) };
}

describe('hostile input over every public endpoint', () => {
  const site = createSiteFixture();
  let api: TestApi;
  let fresh: TestApi;
  beforeAll(async () => {
    const defaults = defaultConfiguration();
    expect(defaults).toMatchObject({ CHALLENGE_MODE: 'auto', LEAD_RATE_LIMIT_PER_IP: expect.any(String), RATE_LIMIT_IPV6_48_FACTOR: expect.any(String) });
    // Two apps on that configuration, so each run starts with its windows empty.
    const env = { PUBLIC_BASE_URL, TWILIO_AUTH_TOKEN: AUTH_TOKEN, WEB_BUILD_DIR: site.dir, ...defaults };
    api = await createTestApi(env);
    fresh = await createTestApi(env);
    // One lead with the same id in both databases, its withdrawal link keyed as the worker does.
    for (const each of [api, fresh]) {
      const { leadId } = await insertLead(each.db, { email: 'ostile@example.it', telefono: '+393470000999' });
      const { token, hash } = withdrawalLinkToken(TEST_LINK_TOKEN_SECRET, leadId);
      await keyWithdrawalLink(each.db, leadId, hash, 24);
      withdrawalToken = token;
    }
  });
  afterAll(async () => {
    await Promise.all([api?.close(), fresh?.close()]);
    site.remove();
  });

  it(`answers ${REQUESTS} generated requests without a 5xx, every error in Italian`, { timeout: 240_000 }, async () => {
    const { histogram, problems } = await run(api, REQUESTS, SEED);
    expect(problems).toEqual([]);
    // The generator also sends requests that must succeed: the bar is not met by refusing all.
    // Past CHALLENGE_GLOBAL_THRESHOLD forms in the window (this run sends thousands in a
    // minute) every form must carry a solution: the rest meet the challenge (428, or 403
    // for the generator's forged ones), so fewer plain forms get their 303.
    for (const [success, least] of [[201, 20], [202, 20], [303, 5], [428, 20]] as const) {
      expect(histogram.get(success) ?? 0, `status ${success}`).toBeGreaterThanOrEqual(least);
    }
  });

  it('holds with the default limits from one client address too (429s in Italian)', { timeout: 120_000 }, async () => {
    const { histogram, problems } = await run(fresh, 1000, SEED + 1, { singleClient: true });
    expect(problems).toEqual([]);
    expect(histogram.get(429) ?? 0).toBeGreaterThan(0);
    // The forms past the challenge's threshold: JSON and the Italian page alike.
    expect(histogram.get(428) ?? 0).toBeGreaterThan(0);
  });

  it('holds with the default limits from a new /64 of one IPv6 /48 for every request', { timeout: 120_000 }, async () => {
    const { histogram, problems } = await run(fresh, 1000, SEED + 2, { oneNetwork: true });
    expect(problems).toEqual([]);
    expect(histogram.get(428) ?? 0).toBeGreaterThan(0);
  });
});
