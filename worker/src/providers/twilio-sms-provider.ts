import http from 'node:http';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { z } from 'zod';
import { SMS_STATUS_CALLBACK_ID_PARAM } from '@guida/shared/jobs/sms';
import { SmsSendError, type SmsProvider } from './sms-provider';

const TWILIO_DEFAULT_BASE = 'https://api.twilio.com';
/** A call to Twilio that has not answered by then is given up (and retried). */
export const TWILIO_REQUEST_TIMEOUT_MS = 15_000;
/** Recent messages to one number that are looked through for one we may have sent. */
const RECENT_MESSAGES_CHECKED = 20;

/**
 * Twilio's own HTTP client, with every request sent to `baseUrl` instead of
 * api.twilio.com: this is how tests and benchmarks point the real client at a local
 * Twilio-compatible server.
 */
class BaseUrlRequestClient extends twilio.RequestClient {
  private readonly base: URL;

  constructor(baseUrl: string) {
    super({ timeout: TWILIO_REQUEST_TIMEOUT_MS, keepAlive: true });
    this.base = new URL(baseUrl);
    if (this.base.protocol === 'http:') {
      this.axios.defaults.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    }
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const target = new URL(opts.uri);
    target.protocol = this.base.protocol;
    target.host = this.base.host;
    return super.request<TData>({ ...opts, uri: target.toString() });
  }
}

/** What we rely on in Twilio's answer to "create message". */
const createdMessageSchema = z.object({ sid: z.string().regex(/^(SM|MM)[0-9a-f]{32}$/i) });

/**
 * What we rely on in Twilio's answer to "fetch message" for its price: a decimal string,
 * negative for a cost, and its ISO 4217 currency; both null until Twilio fills them in.
 */
const pricedMessageSchema = z.object({
  price: z.string().regex(/^-?\d{1,7}(\.\d+)?$/).nullable(),
  priceUnit: z.string().regex(/^[A-Za-z]{3}$/).nullable(),
});

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from?: string | undefined;
  messagingServiceSid?: string | undefined;
  apiBaseUrl: string;
  statusCallbackUrl: string;
  validitySeconds: number;
}

/**
 * Twilio answers 400 for requests that will never succeed (invalid or non-mobile
 * number, blocked region, unsubscribed recipient); 429 when we go too fast; the rest
 * (5xx, network, auth while credentials are being fixed) is worth retrying.
 */
export function classifyTwilioError(error: unknown): SmsSendError {
  const { status, code, message } = error as { status?: unknown; code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : 'unknown Twilio error';
  const codeText = code === undefined || code === null ? null : String(code);
  if (status === 400) return new SmsSendError(text, 'permanent', codeText);
  if (status === 429) return new SmsSendError(text, 'rate-limited', codeText, 1000);
  return new SmsSendError(text, 'transient', codeText ?? (typeof status === 'number' ? `http-${status}` : null));
}

export function createTwilioSmsProvider(settings: TwilioSettings): SmsProvider {
  const client = twilio(settings.accountSid, settings.authToken, {
    autoRetry: false,
    ...(settings.apiBaseUrl === TWILIO_DEFAULT_BASE
      ? { timeout: TWILIO_REQUEST_TIMEOUT_MS }
      : { httpClient: new BaseUrlRequestClient(settings.apiBaseUrl) }),
  });
  return {
    name: 'twilio',
    async send({ to, body, smsId }) {
      let answer: unknown;
      try {
        answer = await client.messages.create({
          to,
          body,
          ...(settings.messagingServiceSid
            ? { messagingServiceSid: settings.messagingServiceSid }
            : { from: settings.from! }),
          // Names our SMS, so a report that comes before we recorded Twilio's id still finds it.
          statusCallback: `${settings.statusCallbackUrl}?${SMS_STATUS_CALLBACK_ID_PARAM}=${smsId}`,
          validityPeriod: settings.validitySeconds,
        });
      } catch (error) {
        throw classifyTwilioError(error);
      }
      const parsed = createdMessageSchema.safeParse(answer);
      if (!parsed.success) {
        throw new SmsSendError('unexpected answer from Twilio (no message sid)', 'transient', null);
      }
      return { providerMessageId: parsed.data.sid };
    },
    // Twilio lists a number's messages newest first; one we sent carries the marker.
    async findSent({ to, marker, since }) {
      let recent: { sid: string; body: string | null; dateCreated: Date | null }[];
      try {
        recent = await client.messages.list({ to, limit: RECENT_MESSAGES_CHECKED });
      } catch (error) {
        throw classifyTwilioError(error);
      }
      const found = recent.find(
        (message) => message.body?.includes(marker) && message.dateCreated !== null && message.dateCreated >= since,
      );
      return found ? { providerMessageId: found.sid } : null;
    },
    async fetchPrice(providerMessageId) {
      let message: unknown;
      try {
        message = await client.messages(providerMessageId).fetch();
      } catch (error) {
        // Twilio no longer knows the message (or never did): no price will ever come.
        // Italian: a price lookup's reasons reach the admin's queues tab (fetch-sms-price.ts).
        if ((error as { status?: unknown }).status === 404) {
          throw new SmsSendError('Twilio non conosce il messaggio', 'permanent', String((error as { code?: unknown }).code ?? 'http-404'));
        }
        throw classifyTwilioError(error);
      }
      const parsed = pricedMessageSchema.safeParse(message);
      if (!parsed.success) throw new SmsSendError('risposta inattesa di Twilio (prezzo del messaggio)', 'transient', null);
      const { price, priceUnit } = parsed.data;
      return price === null || priceUnit === null ? null : { price, unit: priceUnit.toUpperCase() };
    },
  };
}
