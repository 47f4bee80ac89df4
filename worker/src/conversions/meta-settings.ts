import { z } from 'zod';
import { httpUrl, intEnv } from '@guida/shared/config';

/**
 * The Meta Conversions API's settings (decision 061): on only when both META_PIXEL_ID and
 * META_CAPI_ACCESS_TOKEN are set. The token is a secret: it travels only in the body of
 * the POST to Meta, and no message or log ever names its value.
 */
export const metaConversionsEnv = {
  /** The dataset (pixel) id the events go to: digits, as Events Manager shows it. */
  META_PIXEL_ID: z
    .string()
    .regex(/^\d{5,20}$/, { error: 'must be the pixel (dataset) id: digits only, as Events Manager shows it' })
    .optional(),
  /** The Conversions API access token generated in Events Manager (a secret). */
  META_CAPI_ACCESS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_|.-]{20,1024}$/, { error: 'must be the access token from Events Manager (letters and digits, no spaces)' })
    .optional(),
  /** The Graph API's base URL; change only for a Graph-compatible test server. */
  META_GRAPH_API_URL: httpUrl.default('https://graph.facebook.com'),
  /** Events Manager's "Test events" code: while set, events show there (and do not count for ads). */
  META_TEST_EVENT_CODE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be the test code Events Manager shows (e.g. TEST12345)' })
    .optional(),
  /** Base delay of the jittered exponential retries of the conversions queue. */
  CONVERSIONS_RETRY_BASE_MS: intEnv(60_000, 1, 3_600_000),
  /** Minutes Meta must refuse or leave unanswered every event before an alert opens. */
  ALERT_CONVERSIONS_FAILING_MINUTES: intEnv(30, 1, 1440),
};

type MetaValues = {
  NODE_ENV: string;
  META_PIXEL_ID?: string | undefined;
  META_CAPI_ACCESS_TOKEN?: string | undefined;
  META_GRAPH_API_URL: string;
};

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);
const isLoopback = (host: string) => LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);

/**
 * Both ids or neither (one alone is a half-done set-up that would send nothing); the Graph
 * URL over https, except a test server on this machine outside production (the events
 * carry hashed contacts and the token).
 */
export function requireMetaSettings(value: MetaValues, ctx: z.RefinementCtx) {
  const pixel = value.META_PIXEL_ID !== undefined;
  const token = value.META_CAPI_ACCESS_TOKEN !== undefined;
  if (pixel !== token) {
    ctx.addIssue({
      code: 'custom',
      path: [pixel ? 'META_CAPI_ACCESS_TOKEN' : 'META_PIXEL_ID'],
      message: 'set META_PIXEL_ID and META_CAPI_ACCESS_TOKEN together (the Meta Conversions API is on only with both), or neither',
    });
  }
  const url = new URL(value.META_GRAPH_API_URL);
  if (url.protocol === 'https:') return;
  if (value.NODE_ENV === 'production' || !isLoopback(url.hostname)) {
    ctx.addIssue({
      code: 'custom',
      path: ['META_GRAPH_API_URL'],
      message: 'must be https:// (http:// only for a test server on 127.0.0.1 or localhost, outside production)',
    });
  }
}

export interface MetaConversionsSettings {
  graphApiUrl: string;
  pixelId: string;
  accessToken: string;
  testEventCode: string | null;
  /** PUBLIC_BASE_URL: the events' event_source_url is the lead's landing page on it. */
  publicBaseUrl: string;
}

/** The settings when the integration is on, else null. */
export function metaConversionsSettings(config: {
  META_PIXEL_ID?: string | undefined;
  META_CAPI_ACCESS_TOKEN?: string | undefined;
  META_GRAPH_API_URL: string;
  META_TEST_EVENT_CODE?: string | undefined;
  PUBLIC_BASE_URL: string;
}): MetaConversionsSettings | null {
  if (!config.META_PIXEL_ID || !config.META_CAPI_ACCESS_TOKEN) return null;
  return {
    graphApiUrl: config.META_GRAPH_API_URL,
    pixelId: config.META_PIXEL_ID,
    accessToken: config.META_CAPI_ACCESS_TOKEN,
    testEventCode: config.META_TEST_EVENT_CODE ?? null,
    publicBaseUrl: config.PUBLIC_BASE_URL,
  };
}
