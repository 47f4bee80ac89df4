import { randomBytes } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import twilio from 'twilio';
import { waitFor } from './wait-for';

/**
 * A local Twilio-compatible Messages API: what the real `twilio` client sends when its
 * base URL points here. It checks Basic auth and the form fields the way Twilio does,
 * answers like Twilio (create, fetch one, list with the `To` and `From` filters), can be
 * told to fail, and posts signed status callbacks: on demand, or for every accepted
 * message as Twilio does when `statusCallbacks` is given.
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
  /** Its status at Twilio: the initial one, then each one called back. */
  status: string;
  /** Date.now() of the last status change. */
  updatedAt: number;
  /** Date.now() when it became `sent`, if it did. */
  sentAt: number | null;
}

export interface ScriptedFailure {
  status: number;
  code: number;
  message: string;
}

export interface PostedStatusCallback {
  sid: string;
  status: string;
  /** The HTTP status the callback URL answered; null when the request failed (nobody listening). */
  answered: number | null;
  /** Date.now() when the answer (or the failure) came. */
  at: number;
}

export interface StatusCallbackOptions {
  /**
   * Posted in this order for each accepted message that has a StatusCallback. Default as
   * Twilio does (no callback for the initial status): `sent`, `delivered`; with a
   * Messaging Service (initial status `accepted`): `queued`, `sent`, `delivered`.
   */
  statuses?: readonly string[];
  /** Wait before each status of a message, counted from the answer to the previous one. */
  delayMs?: number;
  /** Callback requests in flight at most, across all messages. */
  concurrency?: number;
}

export interface FakeTwilioOptions {
  accountSid?: string;
  authToken?: string;
  /** Post status callbacks for every accepted message, as Twilio does. */
  statusCallbacks?: StatusCallbackOptions;
  /**
   * The price each message is billed, as Twilio reports it on the message ("-0.07400", in
   * the account's currency). Like Twilio, a fetch shows it only once the message is final
   * (delivered, undelivered, failed), and then only from its `afterFetches`-th fetch on
   * (default 1: at once); before, `price` is null. Without it every price stays null.
   */
  prices?: { price: string; unit: string; afterFetches?: number };
}

export interface FakeTwilio {
  url: string;
  accountSid: string;
  authToken: string;
  /** The api and worker settings that send SMS here with the real twilio client. */
  env: Record<string, string>;
  messages: ReceivedSms[];
  /** Requests refused before reaching `messages` (auth, validation, scripted failures). */
  refused: { status: number; code: number }[];
  /** Every status callback posted on its own (`statusCallbacks` option), in the order answered. */
  statusCallbacks: PostedStatusCallback[];
  /** The sid of each message fetched one by one (GET .../Messages/{sid}.json), in order. */
  fetches: string[];
  /** Status callbacks still to post or in flight. */
  statusCallbacksPending(): number;
  /** The next message creations get these answers, in order, instead of being accepted. */
  failNext(...failures: ScriptedFailure[]): void;
  /** Answers every following message creation only after `ms` (0 = at once). */
  respondAfter(ms: number): void;
  /** Posts a signed status callback for a message to its StatusCallback URL. */
  sendStatusCallback(sid: string, status: string, errorCode?: string): Promise<number>;
  /** Resolves once `count` messages were accepted. */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedSms[]>;
  /** Stops posting status callbacks (those in flight are abandoned) and the server. */
  close(): Promise<void>;
}

export const TWILIO_ERRORS = {
  serverError: { status: 500, code: 20500, message: 'An internal server error has occurred' },
  invalidTo: { status: 400, code: 21211, message: "The 'To' number is not a valid phone number." },
  tooManyRequests: { status: 429, code: 20429, message: 'Too Many Requests' },
} satisfies Record<string, ScriptedFailure>;

const API_VERSION = '2010-04-01';
const NOT_FOUND = { status: 404, code: 20404, message: 'The requested resource was not found' };
/** Twilio's default and largest page sizes for list requests. */
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
/** Twilio gives up on a status callback URL after 15 seconds. */
const CALLBACK_TIMEOUT_MS = 15_000;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Twilio prices a message once it is final. */
const FINAL_STATUSES = new Set(['delivered', 'undelivered', 'failed']);

/** Twilio's dates: RFC 2822 in UTC, e.g. "Mon, 16 Aug 2010 03:45:01 +0000". */
const rfc2822 = (ms: number) => new Date(ms).toUTCString().replace(/GMT$/, '+0000');

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

export async function startFakeTwilio(options: FakeTwilioOptions = {}): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? `AC${hex(16)}`;
  const authToken = options.authToken ?? hex(16);
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const messagesPath = `/${API_VERSION}/Accounts/${accountSid}/Messages`;
  const messages: ReceivedSms[] = [];
  const refused: { status: number; code: number }[] = [];
  const scripted: ScriptedFailure[] = [];
  let delayMs = 0;
  const statusCallbacks: PostedStatusCallback[] = [];
  const fetches: string[] = [];
  const callbacks = options.statusCallbacks ? automaticCallbacks(options.statusCallbacks) : null;

  const refuse = (res: ServerResponse, failure: ScriptedFailure) => {
    refused.push({ status: failure.status, code: failure.code });
    sendJson(res, failure.status, {
      code: failure.code,
      message: failure.message,
      more_info: `https://www.twilio.com/docs/errors/${failure.code}`,
      status: failure.status,
    });
  };

  const priceOf = (message: ReceivedSms) => {
    const prices = options.prices;
    const fetched = fetches.filter((sid) => sid === message.sid).length;
    return prices && FINAL_STATUSES.has(message.status) && fetched >= (prices.afterFetches ?? 1) ? prices.price : null;
  };

  const messageJson = (message: ReceivedSms) => ({
    sid: message.sid,
    account_sid: accountSid,
    to: message.to,
    from: message.from,
    messaging_service_sid: message.messagingServiceSid,
    body: message.body,
    status: message.status,
    num_segments: '1',
    num_media: '0',
    direction: 'outbound-api',
    api_version: API_VERSION,
    price: priceOf(message),
    price_unit: options.prices?.unit ?? 'USD',
    date_created: rfc2822(message.receivedAt),
    date_updated: rfc2822(message.updatedAt),
    date_sent: message.sentAt === null ? null : rfc2822(message.sentAt),
    error_code: null,
    error_message: null,
    uri: `${messagesPath}/${message.sid}.json`,
    subresource_uris: { media: `${messagesPath}/${message.sid}/Media.json` },
  });

  async function createMessage(req: IncomingMessage, res: ServerResponse) {
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

    const now = Date.now();
    const message: ReceivedSms = {
      sid: `SM${hex(16)}`,
      to,
      from,
      messagingServiceSid,
      body,
      statusCallback: form.get('StatusCallback'),
      validityPeriod,
      receivedAt: now,
      // A Messaging Service first accepts the message, then queues it.
      status: messagingServiceSid ? 'accepted' : 'queued',
      updatedAt: now,
      sentAt: null,
    };
    messages.push(message);
    sendJson(res, 201, messageJson(message));
    callbacks?.follow(message);
  }

  /** Most recent first, like Twilio; PageToken continues after the last message of a page. */
  function listMessages(query: URLSearchParams, res: ServerResponse) {
    const pageSize = Number(query.get('PageSize') ?? DEFAULT_PAGE_SIZE);
    const page = Number(query.get('Page') ?? 0);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE || !Number.isInteger(page) || page < 0) {
      return refuse(res, { status: 400, code: 20001, message: 'Invalid PageSize or Page' });
    }
    const to = query.get('To');
    const from = query.get('From');
    const matching = messages
      .filter((message) => (to === null || message.to === to) && (from === null || message.from === from))
      .reverse();
    const token = query.get('PageToken');
    const afterToken = token ? matching.findIndex((message) => `PA${message.sid}` === token) + 1 : 0;
    const start = token ? afterToken : page * pageSize;
    const found = matching.slice(start, start + pageSize);

    const pageUri = (pageNumber: number, pageToken?: string) => {
      const params = new URLSearchParams();
      if (to !== null) params.set('To', to);
      if (from !== null) params.set('From', from);
      params.set('PageSize', String(pageSize));
      params.set('Page', String(pageNumber));
      if (pageToken) params.set('PageToken', pageToken);
      return `${messagesPath}.json?${params.toString()}`;
    };
    const last = found.at(-1);
    sendJson(res, 200, {
      messages: found.map(messageJson),
      start,
      end: start + Math.max(found.length - 1, 0),
      page,
      page_size: pageSize,
      uri: pageUri(page, token ?? undefined),
      first_page_uri: pageUri(0),
      next_page_uri: last && start + found.length < matching.length ? pageUri(page + 1, `PA${last.sid}`) : null,
      previous_page_uri: page > 0 ? pageUri(page - 1) : null,
    });
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-twilio');
    const onList = url.pathname === `${messagesPath}.json`;
    const fetchedSid = url.pathname.startsWith(`${messagesPath}/`)
      ? /^((?:SM|MM)[0-9a-f]{32})\.json$/.exec(url.pathname.slice(messagesPath.length + 1))?.[1]
      : undefined;
    const known = (onList && (req.method === 'POST' || req.method === 'GET')) || (fetchedSid && req.method === 'GET');
    if (!known) return refuse(res, NOT_FOUND);
    if (req.headers.authorization !== expectedAuth) return refuse(res, { status: 401, code: 20003, message: 'Authenticate' });
    if (onList && req.method === 'POST') return createMessage(req, res);
    if (onList) return listMessages(url.searchParams, res);
    const message = messages.find((m) => m.sid === fetchedSid);
    if (message) fetches.push(message.sid);
    return message ? sendJson(res, 200, messageJson(message)) : refuse(res, NOT_FOUND);
  });
  server.keepAliveTimeout = 30_000;

  /**
   * Signs and posts one status callback, as Twilio does; resolves with the status the
   * callback URL answered. Plain http: the callback goes to an API on this machine.
   */
  function postStatusCallback(message: ReceivedSms, status: string, errorCode?: string, agent?: Agent) {
    const url = message.statusCallback;
    if (!url) return Promise.reject(new Error(`no status callback URL for ${message.sid}`));
    const now = Date.now();
    message.status = status;
    message.updatedAt = now;
    if (status === 'sent') message.sentAt = now;
    const params: Record<string, string> = {
      AccountSid: accountSid,
      ApiVersion: API_VERSION,
      MessageSid: message.sid,
      MessageStatus: status,
      SmsSid: message.sid,
      SmsStatus: status,
      To: message.to,
      ...(message.from ? { From: message.from } : {}),
      ...(message.messagingServiceSid ? { MessagingServiceSid: message.messagingServiceSid } : {}),
      ...(errorCode ? { ErrorCode: errorCode } : {}),
    };
    const body = new URLSearchParams(params).toString();
    return new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        url,
        {
          method: 'POST',
          agent,
          timeout: CALLBACK_TIMEOUT_MS,
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            'Content-Length': Buffer.byteLength(body),
            'X-Twilio-Signature': twilio.getExpectedTwilioSignature(authToken, url, params),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error('status callback timed out')));
      request.on('error', reject);
      request.end(body);
    });
  }

  /**
   * Each message's statuses one after the other, each `delayMs` after the previous answer;
   * at most `concurrency` requests in flight. A failed request is recorded, never thrown:
   * the API may be gone by then.
   */
  function automaticCallbacks({ statuses, delayMs: waitMs = 10, concurrency = 16 }: StatusCallbackOptions) {
    type Step = { message: ReceivedSms; statuses: readonly string[]; next: number };
    const ready: Step[] = [];
    const timers = new Set<NodeJS.Timeout>();
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    let stopped = false;
    let inFlight = 0;

    const pump = () => {
      while (!stopped && inFlight < concurrency && ready.length > 0) {
        const step = ready.shift()!;
        const status = step.statuses[step.next]!;
        inFlight += 1;
        void postStatusCallback(step.message, status, undefined, agent)
          .catch(() => null)
          .then((answered) => {
            inFlight -= 1;
            if (stopped) return;
            statusCallbacks.push({ sid: step.message.sid, status, answered, at: Date.now() });
            later({ ...step, next: step.next + 1 });
            pump();
          });
      }
    };
    const later = (step: Step) => {
      if (stopped || step.next >= step.statuses.length) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        ready.push(step);
        pump();
      }, waitMs);
      timers.add(timer);
    };
    return {
      follow(message: ReceivedSms) {
        if (!message.statusCallback) return;
        const sequence =
          statuses ?? (message.messagingServiceSid ? ['queued', 'sent', 'delivered'] : ['sent', 'delivered']);
        later({ message, statuses: sequence, next: 0 });
      },
      pending: () => timers.size + ready.length + inFlight,
      stop() {
        stopped = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        ready.length = 0;
        // Ends the requests in flight too.
        agent.destroy();
      },
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('fake Twilio did not start');

  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    accountSid,
    authToken,
    env: {
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_FROM: 'GuidaFin',
      TWILIO_API_BASE_URL: url,
    },
    messages,
    refused,
    statusCallbacks,
    fetches,
    statusCallbacksPending: () => callbacks?.pending() ?? 0,
    failNext: (...failures) => {
      scripted.push(...failures);
    },
    respondAfter: (ms) => {
      delayMs = ms;
    },
    async sendStatusCallback(sid, status, errorCode) {
      const message = messages.find((m) => m.sid === sid);
      if (!message) throw new Error(`no message ${sid}`);
      return postStatusCallback(message, status, errorCode);
    },
    waitForMessages: (count, timeoutMs = 15_000) =>
      waitFor(() => messages.length >= count && messages.slice(0, count), {
        timeoutMs,
        what: `${count} SMS at the fake Twilio`,
      }).catch((error: unknown) => {
        throw new Error(`${(error as Error).message} (${messages.length} arrived)`);
      }),
    close: () => {
      callbacks?.stop();
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
