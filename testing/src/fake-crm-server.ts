import { createServer } from 'node:http';
import { waitFor } from './wait-for';

export interface ReceivedWebhook {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The status this server answered. */
  answered: number;
  receivedAt: number;
}

export interface FakeCrm {
  url: string;
  requests: ReceivedWebhook[];
  /** Answers `status` to the next `count` requests, then 200 again. */
  failNext(count: number, status?: number): void;
  /** Answers every following request only after `ms` (0 = at once). */
  respondAfter(ms: number): void;
  /** Requests received and not answered yet. */
  inFlight(): number;
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A CRM webhook receiver on 127.0.0.1 that records every request and can fail on demand. */
export async function startFakeCrm(): Promise<FakeCrm> {
  const requests: ReceivedWebhook[] = [];
  const failures: number[] = [];
  let delayMs = 0;
  let inFlight = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      inFlight += 1;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      inFlight -= 1;
      const answered = failures.shift() ?? 200;
      requests.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered,
        receivedAt: Date.now(),
      });
      res.writeHead(answered, { 'Content-Type': 'application/json' });
      res.end(answered === 200 ? '{"ok":true}' : '{"error":"unavailable"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('fake CRM did not start');

  return {
    url: `http://127.0.0.1:${address.port}/webhooks/leads`,
    requests,
    failNext(count, status = 503) {
      for (let i = 0; i < count; i += 1) failures.push(status);
    },
    inFlight: () => inFlight,
    respondAfter(ms) {
      delayMs = ms;
    },
    waitForRequests: (count, timeoutMs = 15_000) =>
      waitFor(() => requests.length >= count && requests.slice(0, count), {
        timeoutMs,
        what: `${count} CRM requests`,
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
