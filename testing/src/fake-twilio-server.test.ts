import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { startFakeTwilio, type FakeTwilio, type FakeTwilioOptions } from './fake-twilio-server';
import { freePort } from './free-port';
import { waitFor } from './wait-for';

/** The real client with every request sent to the fake instead of api.twilio.com. */
class FakeTwilioRequestClient extends twilio.RequestClient {
  private readonly base: URL;

  constructor(baseUrl: string) {
    super();
    this.base = new URL(baseUrl);
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const target = new URL(opts.uri);
    target.protocol = this.base.protocol;
    target.host = this.base.host;
    return super.request<TData>({ ...opts, uri: target.toString() });
  }
}

const clientFor = (fake: FakeTwilio) =>
  twilio(fake.accountSid, fake.authToken, { autoRetry: false, httpClient: new FakeTwilioRequestClient(fake.url) });

interface ReceivedCallback {
  params: Record<string, string>;
  signedByTwilio: boolean;
}

/** The application's side: records each callback and checks its signature as the API does. */
async function startCallbackReceiver(authToken: string) {
  const received: ReceivedCallback[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const server: Server = createServer((req, res) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const signature = req.headers['x-twilio-signature'];
      received.push({
        params,
        signedByTwilio:
          typeof signature === 'string' && twilio.validateRequest(authToken, signature, url, params),
      });
      // Answers a little later, so that callbacks overlap when the fake lets them.
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(204).end();
      }, 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('callback receiver did not start');
  const url = `http://127.0.0.1:${address.port}/api/sms/status`;
  return {
    url,
    received,
    mostInFlight: () => mostInFlight,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const cleanUps: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

async function fakeTwilio(options: FakeTwilioOptions = {}) {
  const fake = await startFakeTwilio(options);
  cleanUps.push(() => fake.close());
  return fake;
}

describe('fake Twilio, with the real twilio client', () => {
  it('lists the messages to one number, most recent first, across pages', async () => {
    const fake = await fakeTwilio();
    const client = clientFor(fake);
    for (const [to, body] of [
      ['+393470000001', 'first'],
      ['+393470000002', 'other number'],
      ['+393470000001', 'second'],
      ['+393470000001', 'third'],
    ] as const) {
      await client.messages.create({ to, body, from: 'GuidaFin' });
    }

    const latest = await client.messages.list({ to: '+393470000001', limit: 2 });
    expect(latest.map((message) => message.body)).toEqual(['third', 'second']);
    expect(latest[0]).toMatchObject({ to: '+393470000001', from: 'GuidaFin', status: 'queued', accountSid: fake.accountSid });
    expect(latest[0]!.dateCreated).toBeInstanceOf(Date);
    expect(latest[0]!.dateCreated.getTime()).not.toBeNaN();

    // One message per page: the client follows next_page_uri.
    const paged = await client.messages.list({ to: '+393470000001', pageSize: 1 });
    expect(paged.map((message) => message.body)).toEqual(['third', 'second', 'first']);

    expect(await client.messages.list({ to: '+393470000009', limit: 20 })).toEqual([]);
    const [other] = await client.messages.list({ to: '+393470000002' });
    const fetched = await client.messages(other!.sid).fetch();
    expect(fetched).toMatchObject({ sid: other!.sid, body: 'other number' });
    await expect(client.messages(`SM${'0'.repeat(32)}`).fetch()).rejects.toMatchObject({ status: 404, code: 20404 });
  });

  it('refuses a list request without the right credentials', async () => {
    const fake = await fakeTwilio();
    const stranger = twilio(fake.accountSid, 'a-wrong-auth-token-00', {
      httpClient: new FakeTwilioRequestClient(fake.url),
    });
    await expect(stranger.messages.list({ limit: 1 })).rejects.toMatchObject({ status: 401 });
  });

  it('calls back each accepted message, signed and in order, as Twilio does', async () => {
    const fake = await fakeTwilio({ statusCallbacks: { delayMs: 1, concurrency: 2 } });
    const receiver = await startCallbackReceiver(fake.authToken);
    cleanUps.push(() => receiver.close());
    const client = clientFor(fake);

    const direct = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        client.messages.create({
          to: `+39347000010${i}`,
          body: 'guida',
          from: 'GuidaFin',
          statusCallback: receiver.url,
        }),
      ),
    );
    const viaService = await client.messages.create({
      to: '+393470000200',
      body: 'guida',
      messagingServiceSid: `MG${'1'.repeat(32)}`,
      statusCallback: receiver.url,
    });
    expect(viaService.status).toBe('accepted');

    await waitFor(() => fake.statusCallbacksPending() === 0 && fake.statusCallbacks.length === 6 * 2 + 3, {
      what: 'every status callback answered',
    });
    const statusesOf = (sid: string) =>
      receiver.received.filter((callback) => callback.params.MessageSid === sid).map((c) => c.params.MessageStatus);
    for (const message of direct) expect(statusesOf(message.sid)).toEqual(['sent', 'delivered']);
    expect(statusesOf(viaService.sid)).toEqual(['queued', 'sent', 'delivered']);
    expect(receiver.received.every((callback) => callback.signedByTwilio)).toBe(true);
    expect(receiver.received[0]!.params).toMatchObject({ AccountSid: fake.accountSid, ApiVersion: '2010-04-01' });
    expect(fake.statusCallbacks.every((callback) => callback.answered === 204)).toBe(true);
    expect(receiver.mostInFlight()).toBeLessThanOrEqual(2);

    const [latest] = await client.messages.list({ to: direct[0]!.to, limit: 1 });
    expect(latest).toMatchObject({ sid: direct[0]!.sid, status: 'delivered' });
    expect(latest!.dateSent).toBeInstanceOf(Date);
  });

  it('records callbacks nobody answers without failing, and posts the given statuses', async () => {
    const gone = `http://127.0.0.1:${await freePort()}/api/sms/status`;
    const fake = await fakeTwilio({ statusCallbacks: { statuses: ['queued', 'sent', 'delivered'], delayMs: 1 } });
    const client = clientFor(fake);
    const message = await client.messages.create({
      to: '+393470000300',
      body: 'guida',
      from: 'GuidaFin',
      statusCallback: gone,
    });

    await waitFor(() => fake.statusCallbacksPending() === 0 && fake.statusCallbacks.length === 3, {
      what: 'three unanswered callbacks',
    });
    expect(fake.statusCallbacks.map(({ sid, status, answered }) => ({ sid, status, answered }))).toEqual([
      { sid: message.sid, status: 'queued', answered: null },
      { sid: message.sid, status: 'sent', answered: null },
      { sid: message.sid, status: 'delivered', answered: null },
    ]);
  });
});
