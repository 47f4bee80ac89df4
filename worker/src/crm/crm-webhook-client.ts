import axios from 'axios';
import { deprecatedGuidaSignature, standardWebhookHeaders, webhookSigningKey } from '@guida/shared/server/webhook-signature';

export interface CrmWebhookSettings {
  url: string;
  /** CRM_WEBHOOK_SECRET: signs every request (and the deprecated X-Guida-Signature). */
  secret: string;
  /** CRM_WEBHOOK_SECRET_PREVIOUS: during a change of secret, signs too. */
  previousSecret?: string | undefined;
  timeoutMs: number;
}

export class CrmDeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly responseStatus: number | null,
  ) {
    super(message);
    this.name = 'CrmDeliveryError';
  }
}

/** 4xx means the CRM refuses this payload and will again, except these. */
const RETRYABLE_CLIENT_ERRORS = new Set([408, 425, 429]);

/**
 * The headers of one attempt (docs/crm-webhook.md): Standard Webhooks, whose webhook-id is
 * the delivery id so that it stays the same across retries, plus the deprecated X-Guida-*
 * headers of earlier releases.
 */
function crmWebhookHeaders(
  settings: Pick<CrmWebhookSettings, 'secret' | 'previousSecret'>,
  delivery: { id: number; event: string; body: string },
  timestamp: number,
) {
  const id = String(delivery.id);
  const secrets = settings.previousSecret ? [settings.secret, settings.previousSecret] : [settings.secret];
  return {
    ...standardWebhookHeaders(secrets.map(webhookSigningKey), id, timestamp, delivery.body),
    'X-Guida-Event': delivery.event,
    'X-Guida-Delivery': id,
    'X-Guida-Timestamp': String(timestamp),
    'X-Guida-Signature': deprecatedGuidaSignature(settings.secret, timestamp, delivery.body),
  };
}

/** POSTs the JSON body, signed; resolves with the status on 2xx, else throws a CrmDeliveryError. */
export async function postToCrm(
  settings: CrmWebhookSettings,
  delivery: { id: number; event: string; body: string },
): Promise<number> {
  // Signed per attempt: receivers refuse a timestamp more than 5 minutes off.
  const timestamp = Math.floor(Date.now() / 1000);
  let status: number;
  try {
    const response = await axios.post(settings.url, delivery.body, {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'guida-finanza-webhook/1',
        ...crmWebhookHeaders(settings, delivery, timestamp),
      },
      timeout: settings.timeoutMs,
      maxRedirects: 0,
      validateStatus: () => true,
      // The answer is not used; do not buffer a large one.
      maxContentLength: 64 * 1024,
    });
    status = response.status;
  } catch (error) {
    throw new CrmDeliveryError(`CRM unreachable: ${(error as Error).message}`, false, null);
  }
  if (status >= 200 && status < 300) return status;
  const permanent = status >= 400 && status < 500 && !RETRYABLE_CLIENT_ERRORS.has(status);
  throw new CrmDeliveryError(`CRM answered HTTP ${status}`, permanent, status);
}
