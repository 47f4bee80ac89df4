import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import twilio from 'twilio';
import { waitFor } from './wait-for';

/**
 * A local Twilio-compatible Messages API: what the real `twilio` client sends when its
 * base URL points here. It checks Basic auth and the form fields the way Twilio does,
 * answers like Twilio, can be told to fail, and can post signed status callbacks.
 */
export interface ReceivedSms {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
  validityPeriod: string | null;
  /** Date.now() when the request arrived. */
  receivedAt: number;
}

export interface ScriptedFailure {
  status: number;
  code: number;
  message: string;
}

export interface FakeTwilio {
  url: string;
  accountSid: string;
  authToken: string;
  messages: ReceivedSms[];
  /** Requests refused before reaching `messages` (auth, validation, scripted failures). */
  refused: { status: number; code: number }[];
  /** The next requests get these answers, in order, instead of being accepted. */
  failNext(...failures: ScriptedFailure[]): void;
  /** Answers every following request only after `ms` (0 = at once). */
  respondAfter(ms: number): void;
  /** Posts a signed status callback for a message to its StatusCallback URL. */
  sendStatusCallback(sid: string, status: string, errorCode?: string): Promise<number>;
  /** Resolves once `count` messages were accepted. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedSms[]>;
  close(): Promise<void>;
}

export const TWILIO_ERRORS = {
  serverError: { status: 500, code: 20500, message: 'An internal server error has occurred' },
  invalidTo: { status: 400, code: 21211, message: "The 'To' number is not a valid phone number." },
  tooManyRequests: { status: 429, code: 20429, message: 'Too Many Requests' },
} satisfies Record<string, ScriptedFailure>;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startFakeTwilio(options: { accountSid?: string; authToken?: string } = {}): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? `AC${hex(16)}`;
  const authToken = options.authToken ?? hex(16);
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const messages: ReceivedSms[] = [];
  const refused: { status: number; code: number }[] = [];
  const scripted: ScriptedFailure[] = [];
  let delayMs = 0;

  const refuse = (res: ServerResponse, failure: ScriptedFailure) => {
    refused.push({ status: failure.status, code: failure.code });
    sendJson(res, failure.status, {
      code: failure.code,
      message: failure.message,
      more_info: `https://www.twilio.com/docs/errors/${failure.code}`,
      status: failure.status,
    });
  };

  const server = createServer(async (req, res) => {
    const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
    if (req.method !== 'POST' || req.url !== path) {
      refuse(res, { status: 404, code: 20404, message: 'The requested resource was not found' });
      return;
    }
    if (req.headers.authorization !== expectedAuth) {
      refuse(res, { status: 401, code: 20003, message: 'Authenticate' });
      return;
    }
    const form = new URLSearchParams(await readBody(req));
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const failure = scripted.shift();
    if (failure) return refuse(res, failure);

    const to = form.get('To');
    const body = form.get('Body');
    const from = form.get('From');
    const messagingServiceSid = form.get('MessagingServiceSid');
    if (!to) return refuse(res, { status: 400, code: 21604, message: "A 'To' phone number is required." });
    if (!/^\+[1-9]\d{6,14}$/.test(to)) return refuse(res, TWILIO_ERRORS.invalidTo);
    if (!body) return refuse(res, { status: 400, code: 21602, message: 'Message body is required.' });
    if (!from && !messagingServiceSid) {
      return refuse(res, { status: 400, code: 21603, message: "A 'From' phone number is required." });
    }
    const validityPeriod = form.get('ValidityPeriod');
    if (validityPeriod !== null && !/^\d+$/.test(validityPeriod)) {
      return refuse(res, { status: 400, code: 21623, message: 'Invalid ValidityPeriod' });
    }

    const sid = `SM${hex(16)}`;
    messages.push({
      sid,
      to,
      from,
      messagingServiceSid,
      body,
      statusCallback: form.get('StatusCallback'),
      validityPeriod,
      receivedAt: Date.now(),
    });
    const now = new Date().toUTCString();
    sendJson(res, 201, {
      sid,
      account_sid: accountSid,
      to,
      from,
      messaging_service_sid: messagingServiceSid,
      body,
      status: 'queued',
      num_segments: '1',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      date_created: now,
      date_updated: now,
      date_sent: null,
      error_code: null,
      error_message: null,
      uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
    });
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('fake Twilio did not start');

  return {
    url: `http://127.0.0.1:${address.port}`,
    accountSid,
    authToken,
    messages,
    refused,
    failNext: (...failures) => {
      scripted.push(...failures);
    },
    respondAfter: (ms) => {
      delayMs = ms;
    },
    async sendStatusCallback(sid, status, errorCode) {
      const message = messages.find((m) => m.sid === sid);
      if (!message?.statusCallback) throw new Error(`no status callback URL for ${sid}`);
      const params: Record<string, string> = {
        AccountSid: accountSid,
        ApiVersion: '2010-04-01',
        MessageSid: sid,
        MessageStatus: status,
        SmsSid: sid,
        SmsStatus: status,
        To: message.to,
        ...(message.from ? { From: message.from } : {}),
        ...(errorCode ? { ErrorCode: errorCode } : {}),
      };
      const response = await fetch(message.statusCallback, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': twilio.getExpectedTwilioSignature(authToken, message.statusCallback, params),
        },
        body: new URLSearchParams(params).toString(),
      });
      return response.status;
    },
    waitForMessages: (count, timeoutMs = 15_000) =>
      waitFor(() => messages.length >= count && messages.slice(0, count), {
        timeoutMs,
        what: `${count} SMS at the fake Twilio`,
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
