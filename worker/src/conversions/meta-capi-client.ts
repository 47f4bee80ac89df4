import axios from 'axios';
import { z } from 'zod';
import type { MetaServerEvent } from './meta-event';
import type { MetaConversionsSettings } from './meta-settings';

/**
 * The Graph API version of every Conversions API call: the newest when written (v26.0,
 * released 29 July 2026; Meta supports a version for about two years). One constant, so
 * moving to the next is one line and a run of the tests against the fake Graph server.
 */
export const META_GRAPH_API_VERSION = 'v26.0';

/** A call Meta does not answer within this is abandoned and retried. */
export const META_REQUEST_TIMEOUT_MS = 10_000;

/** `{base}/v<version>/<pixel id>/events` */
export const metaEventsUrl = (settings: Pick<MetaConversionsSettings, 'graphApiUrl' | 'pixelId'>) =>
  `${settings.graphApiUrl}/${META_GRAPH_API_VERSION}/${settings.pixelId}/events`;

/** Meta's answer to a POST that took the events. */
const acceptedSchema = z.object({
  events_received: z.number().int(),
  messages: z.array(z.unknown()).optional(),
  fbtrace_id: z.string().max(200).optional(),
});

/** The Graph API's error body. */
const graphErrorSchema = z.object({
  error: z.object({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.number().optional(),
    error_subcode: z.number().optional(),
    is_transient: z.boolean().optional(),
    fbtrace_id: z.string().optional(),
  }),
});

/**
 * Graph API error codes that mean "try again later" whatever the HTTP status (Meta
 * answers most errors with 400): unknown error (1), service unavailable (2), and the rate
 * limits of the application (4), the user (17), the page (32) and calls in general (613).
 */
const TRANSIENT_GRAPH_CODES = new Set([1, 2, 4, 17, 32, 613]);
/** 4xx means Meta refuses these events and will again, except these. */
const RETRYABLE_HTTP = new Set([408, 425, 429]);

export class ConversionUploadError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly responseStatus: number | null,
    readonly responseSummary: string | null,
  ) {
    super(message);
    this.name = 'ConversionUploadError';
  }
}

/** An SHA-256 in a message from Meta is one of our hashed contacts: never kept. */
const withoutHashes = (text: string) => text.replace(/\b[0-9a-f]{64}\b/gi, '[hash]').slice(0, 300);

const traceOf = (fbtraceId: string | undefined) => (fbtraceId ? ` · fbtrace_id ${fbtraceId.slice(0, 64)}` : '');

/**
 * POSTs the events, with the access token in the JSON body (never in the URL, which proxies
 * and logs keep), and the test event code when set. Resolves with the status and a short
 * summary of Meta's answer (counts and trace id only) on success; otherwise throws a
 * ConversionUploadError, `permanent` when retrying cannot help.
 */
export async function postMetaEvents(
  settings: MetaConversionsSettings,
  events: MetaServerEvent[],
  timeoutMs = META_REQUEST_TIMEOUT_MS,
): Promise<{ responseStatus: number; responseSummary: string }> {
  const body = JSON.stringify({
    data: events,
    access_token: settings.accessToken,
    ...(settings.testEventCode ? { test_event_code: settings.testEventCode } : {}),
  });
  let status: number;
  let answer: unknown;
  try {
    const response = await axios.post(metaEventsUrl(settings), body, {
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'guida-finanza-conversions/1' },
      timeout: timeoutMs,
      maxRedirects: 0,
      validateStatus: () => true,
      maxContentLength: 64 * 1024,
      responseType: 'json',
    });
    status = response.status;
    answer = response.data;
  } catch (error) {
    // Only the message: the error object holds the request, and the request the token.
    throw new ConversionUploadError(`Meta non raggiungibile: ${(error as Error).message}`, false, null, null);
  }

  if (status >= 200 && status < 300) {
    const accepted = acceptedSchema.safeParse(answer);
    if (!accepted.success || accepted.data.events_received < events.length) {
      const received = accepted.success ? accepted.data.events_received : null;
      throw new ConversionUploadError(
        `Risposta inattesa di Meta (HTTP ${status}${received === null ? '' : `, eventi ricevuti ${received} su ${events.length}`})`,
        false,
        status,
        received === null ? null : `eventi ricevuti: ${received}${traceOf(accepted.data?.fbtrace_id)}`,
      );
    }
    const { events_received: received, messages = [], fbtrace_id: trace } = accepted.data;
    const warnings = messages.length > 0 ? ` · avvisi: ${messages.length}` : '';
    return { responseStatus: status, responseSummary: `eventi ricevuti: ${received}${warnings}${traceOf(trace)}` };
  }

  const graph = graphErrorSchema.safeParse(answer);
  const error = graph.success ? graph.data.error : null;
  const transient =
    status >= 500 ||
    RETRYABLE_HTTP.has(status) ||
    error?.is_transient === true ||
    (error?.code !== undefined && TRANSIENT_GRAPH_CODES.has(error.code));
  const code = error?.code === undefined ? '' : ` codice ${error.code}${error.error_subcode === undefined ? '' : `/${error.error_subcode}`}`;
  const summary = error ? `errore${code}${error.type ? ` (${withoutHashes(error.type)})` : ''}${traceOf(error.fbtrace_id)}` : null;
  throw new ConversionUploadError(
    `Meta ha risposto HTTP ${status}${error?.message ? `: ${withoutHashes(error.message)}` : ''}`,
    !transient,
    status,
    summary ? summary.slice(0, 300) : null,
  );
}
