import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { isIP } from 'node:net';
import { waitFor } from './wait-for';

/**
 * A Graph API compatible server on 127.0.0.1 for the Meta Conversions API
 * (`POST /<version>/<pixel id>/events`), checking each request as Meta documents it
 * (Server Event and Customer Information Parameters): the path, the version, the access
 * token, the events' shape, and that contact data arrives hashed. It answers like Meta:
 * `{"events_received":N,"messages":[],"fbtrace_id":"…"}`, or a Graph error body with a
 * 400 (a refused request) or the status it was told to fail with.
 */

export interface GraphRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  /** The parsed JSON body (null when it was not JSON). */
  body: Record<string, unknown> | null;
  /** What the server found wrong with the request; empty when Meta would take it. */
  problems: string[];
  /** The status answered. */
  answered: number;
}

export interface FakeGraph {
  /** The base URL, for META_GRAPH_API_URL. */
  url: string;
  requests: GraphRequest[];
  /** The requests that carried the event with this event_id. */
  requestsFor(eventId: string): GraphRequest[];
  /** Answers the next `count` requests (valid or not) with `status` and a Graph error (transient for 5xx), then as usual. */
  failNext(count: number, status?: number): void;
  /** The first `count` requests carrying the event `eventId`. */
  waitForRequests(count: number, eventId: string, timeoutMs?: number): Promise<GraphRequest[]>;
  close(): Promise<void>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const ACTION_SOURCES = new Set([
  'email',
  'website',
  'app',
  'phone_call',
  'chat',
  'physical_store',
  'system_generated',
  'business_messaging',
  'other',
]);
/** The hashed customer information parameters (always a lowercase SHA-256). */
const HASHED = new Set(['em', 'ph', 'fn', 'ln', 'db', 'ge', 'ct', 'st', 'zp', 'country']);
/** Those sent as they are. */
const PLAIN = new Set(['external_id', 'client_ip_address', 'client_user_agent', 'fbc', 'fbp', 'subscription_id', 'fb_login_id', 'lead_id']);
const EVENT_KEYS = new Set([
  'event_name',
  'event_time',
  'event_id',
  'action_source',
  'event_source_url',
  'user_data',
  'custom_data',
  'opt_out',
  'data_processing_options',
  'data_processing_options_country',
  'data_processing_options_state',
  'referrer_url',
]);
const SEVEN_DAYS_S = 7 * 24 * 3600;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function eventProblems(event: unknown, index: number, nowS: number): string[] {
  const at = `data[${index}]`;
  if (!isObject(event)) return [`${at} is not an object`];
  const problems = Object.keys(event)
    .filter((key) => !EVENT_KEYS.has(key))
    .map((key) => `${at}.${key} is not a server event parameter`);
  if (typeof event.event_name !== 'string' || event.event_name.length === 0 || event.event_name.length > 50) {
    problems.push(`${at}.event_name must be a name of at most 50 characters`);
  }
  const time = event.event_time;
  if (typeof time !== 'number' || !Number.isInteger(time)) problems.push(`${at}.event_time must be whole Unix seconds`);
  else if (time > nowS + 60) problems.push(`${at}.event_time is in the future`);
  else if (time < nowS - SEVEN_DAYS_S) problems.push(`${at}.event_time is more than 7 days ago`);
  if (typeof event.event_id !== 'string' || event.event_id.length === 0) problems.push(`${at}.event_id is missing`);
  if (typeof event.action_source !== 'string' || !ACTION_SOURCES.has(event.action_source)) {
    problems.push(`${at}.action_source is not one of Meta's`);
  }
  if (event.action_source === 'website') {
    if (typeof event.event_source_url !== 'string' || !/^https?:\/\//.test(event.event_source_url)) {
      problems.push(`${at}.event_source_url is required for a website event`);
    }
  }
  const user = event.user_data;
  if (!isObject(user)) return [...problems, `${at}.user_data is required`];
  for (const [key, value] of Object.entries(user)) {
    if (HASHED.has(key)) {
      const values = Array.isArray(value) ? value : [value];
      if (values.length === 0 || !values.every((item) => typeof item === 'string' && SHA256_HEX.test(item))) {
        problems.push(`${at}.user_data.${key} must be SHA-256 hashed (lowercase hex)`);
      }
    } else if (!PLAIN.has(key)) {
      problems.push(`${at}.user_data.${key} is not a customer information parameter`);
    }
  }
  if (event.action_source === 'website' && typeof user.client_user_agent !== 'string') {
    problems.push(`${at}.user_data.client_user_agent is required for a website event`);
  }
  if (user.fbc !== undefined && (typeof user.fbc !== 'string' || !/^fb\.\d\.\d{13}\.[^.\s][^\s]*$/.test(user.fbc))) {
    problems.push(`${at}.user_data.fbc must be fb.<subdomain index>.<creation ms>.<fbclid>`);
  }
  if (user.client_ip_address !== undefined && (typeof user.client_ip_address !== 'string' || isIP(user.client_ip_address) === 0)) {
    problems.push(`${at}.user_data.client_ip_address must be a real IP address`);
  }
  return problems;
}

function requestProblems(
  path: string,
  contentType: string | undefined,
  body: Record<string, unknown> | null,
  expected: GraphExpectations,
): { problems: string[]; badToken: boolean } {
  const problems: string[] = [];
  const match = /^\/(v\d+\.\d+)\/([^/]+)\/events$/.exec(path);
  if (!match) problems.push(`unknown path ${path}`);
  else {
    if (expected.version ? match[1] !== expected.version : !/^v\d+\.0$/.test(match[1]!)) {
      problems.push(`version ${match[1]}, expected ${expected.version ?? 'v<major>.0'}`);
    }
    if (match[2] !== expected.pixelId) problems.push(`pixel ${match[2]}, expected ${expected.pixelId}`);
  }
  if (!contentType?.startsWith('application/json')) problems.push('the body must be JSON');
  if (!body) return { problems: [...problems, 'the body is not a JSON object'], badToken: true };
  const badToken = body.access_token !== expected.accessToken;
  if (badToken) problems.push('access_token missing or wrong');
  const data = body.data;
  if (!Array.isArray(data) || data.length === 0 || data.length > 1000) problems.push('data must hold 1 to 1000 events');
  else data.forEach((event, index) => problems.push(...eventProblems(event, index, Math.floor(Date.now() / 1000))));
  for (const key of Object.keys(body)) {
    if (!['data', 'access_token', 'test_event_code', 'partner_agent', 'namespace_id', 'upload_tag'].includes(key)) {
      problems.push(`${key} is not a parameter of the events endpoint`);
    }
  }
  return { problems, badToken };
}

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const traceId = () => `A${randomBytes(10).toString('base64url')}`;

export interface GraphExpectations {
  /** The Graph API version the path must name (e.g. v26.0); omitted: any v<major>.0. */
  version?: string;
  pixelId: string;
  accessToken: string;
}

export async function startFakeGraph(expected: GraphExpectations): Promise<FakeGraph> {
  const requests: GraphRequest[] = [];
  const failures: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = jsonObject(Buffer.concat(chunks).toString('utf8'));
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const checked =
        req.method === 'POST'
          ? requestProblems(path, req.headers['content-type'], body, expected)
          : { problems: [`method ${req.method}`], badToken: false };
      const failure = failures.shift();
      let status: number;
      let answer: unknown;
      if (failure !== undefined) {
        status = failure;
        const transient = failure >= 500;
        answer = {
          error: transient
            ? { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, is_transient: true, fbtrace_id: traceId() }
            : { message: 'Invalid parameter', type: 'OAuthException', code: 100, error_subcode: 2804003, is_transient: false, fbtrace_id: traceId() },
        };
      } else if (checked.badToken) {
        status = 400;
        answer = { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: traceId() } };
      } else if (checked.problems.length > 0) {
        status = 400;
        answer = {
          error: { message: `Invalid parameter: ${checked.problems.join('; ')}`, type: 'OAuthException', code: 100, fbtrace_id: traceId() },
        };
      } else {
        status = 200;
        answer = { events_received: (body!.data as unknown[]).length, messages: [], fbtrace_id: traceId() };
      }
      requests.push({ method: req.method ?? '', path, contentType: req.headers['content-type'], body, problems: checked.problems, answered: status });
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('fake Graph API did not start');

  const requestsFor = (eventId: string) =>
    requests.filter((request) => Array.isArray(request.body?.data) && request.body.data.some((event) => isObject(event) && event.event_id === eventId));
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    requestsFor,
    failNext(count, status = 500) {
      for (let i = 0; i < count; i += 1) failures.push(status);
    },
    waitForRequests(count, eventId, timeoutMs = 15_000) {
      return waitFor(
        () => {
          const found = requestsFor(eventId);
          return found.length >= count && found.slice(0, count);
        },
        { timeoutMs, what: `${count} Graph API requests with event ${eventId}` },
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
