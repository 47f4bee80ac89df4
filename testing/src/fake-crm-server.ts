import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { waitFor } from './wait-for';

/** A valid Standard Webhooks secret (whsec_ + base64 of 32 bytes) derived from a name, for tests. */
export const testWebhookSecret = (name: string) => `whsec_${createHash('sha256').update(name).digest('base64')}`;

export interface ReceivedWebhook {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The delivery id the request carries (webhook-id), or null without one. */
  deliveryId: number | null;
  /**
   * Whether the `standardwebhooks` package's Webhook.verify accepted the request with the
   * secret this receiver held (see verifyWith); null while it holds none.
   */
  verified: boolean | null;
  /** The status this server answers; null until the answer is sent (see respondAfter). */
  answered: number | null;
  /** When the request arrived (not when it was answered). */
  receivedAt: number;
}

export interface WaitForRequestsOptions {
  /** Counts only the requests of this delivery (webhook-id). */
  deliveryId?: number;
  timeoutMs?: number;
}

export interface FakeCrm {
  url: string;
  /**
   * Every request, recorded as it arrives (its answer filled in when sent), so that a
   * request held back by respondAfter never shows up later, in another test.
   */
  requests: ReceivedWebhook[];
  /** The requests of one delivery: what a test counts, unaffected by other tests' requests. */
  requestsFor(deliveryId: number): ReceivedWebhook[];
  /** Answers `status` to the next `count` requests to arrive (that pass verification), then 200 again. */
  failNext(count: number, status?: number): void;
  /**
   * Verifies every request arriving from now on with this Standard Webhooks secret, as a
   * real receiver does, and answers 401 to one that fails; null stops verifying.
   */
  verifyWith(secret: string | null): void;
  /** Answers every request arriving from now on only after `ms` (0 = at once). */
  respondAfter(ms: number): void;
  /** Requests received and not answered yet. */
  inFlight(): number;
  /**
   * The first `count` requests (of one delivery, with `deliveryId`) once each has been
   * answered; a number as second argument is the timeout.
   */
  waitForRequests(count: number, options?: number | WaitForRequestsOptions): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

function deliveryIdOf(header: string | string[] | undefined): number | null {
  const id = Number(Array.isArray(header) ? header[0] : header);
  return Number.isInteger(id) && id > 0 ? id : null;
}

function verifies(receiver: Webhook, body: string, headers: IncomingHttpHeaders) {
  try {
    receiver.verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/**
 * A CRM webhook receiver on 127.0.0.1 that records every request, can fail on demand and,
 * given a secret, verifies the signatures (Standard Webhooks) as a real receiver does.
 */
export async function startFakeCrm(options: { secret?: string } = {}): Promise<FakeCrm> {
  const requests: ReceivedWebhook[] = [];
  const failures: number[] = [];
  let receiver = options.secret ? new Webhook(options.secret) : null;
  let delayMs = 0;
  let inFlight = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      // Status and delay are decided on arrival, so a held-back request cannot take a
      // failure meant for a later one.
      const body = Buffer.concat(chunks).toString('utf8');
      const verified = receiver ? verifies(receiver, body, req.headers) : null;
      const status = verified === false ? 401 : (failures.shift() ?? 200);
      const delay = delayMs;
      const received: ReceivedWebhook = {
        headers: req.headers,
        body,
        deliveryId: deliveryIdOf(req.headers['webhook-id']),
        verified,
        answered: null,
        receivedAt: Date.now(),
      };
      requests.push(received);
      inFlight += 1;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      inFlight -= 1;
      received.answered = status;
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(status === 200 ? '{"ok":true}' : `{"error":"${status === 401 ? 'bad signature' : 'unavailable'}"}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('fake CRM did not start');

  const requestsFor = (deliveryId: number) => requests.filter((request) => request.deliveryId === deliveryId);
  return {
    url: `http://127.0.0.1:${address.port}/webhooks/leads`,
    requests,
    requestsFor,
    failNext(count, status = 503) {
      for (let i = 0; i < count; i += 1) failures.push(status);
    },
    inFlight: () => inFlight,
    verifyWith(secret) {
      receiver = secret ? new Webhook(secret) : null;
    },
    respondAfter(ms) {
      delayMs = ms;
    },
    waitForRequests(count, options = {}) {
      const { deliveryId, timeoutMs = 15_000 } = typeof options === 'number' ? { timeoutMs: options } : options;
      return waitFor(
        () => {
          const first = (deliveryId === undefined ? requests : requestsFor(deliveryId)).slice(0, count);
          return first.length === count && first.every((request) => request.answered !== null) && first;
        },
        { timeoutMs, what: `${count} answered CRM requests${deliveryId === undefined ? '' : ` of delivery ${deliveryId}`}` },
      );
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
