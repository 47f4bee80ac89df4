import { createHmac } from 'node:crypto';
import axios from 'axios';

export interface CrmWebhookSettings {
  url: string;
  secret: string;
  timeoutMs: number;
}

/** `sha256=<hex>` of HMAC-SHA256(secret, "<timestamp>.<body>"); see docs/crm-webhook.md. */
export function signCrmBody(secret: string, timestamp: number, body: string) {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
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

/** POSTs the JSON body, signed; resolves with the status on 2xx, else throws a CrmDeliveryError. */
export async function postToCrm(
  settings: CrmWebhookSettings,
  delivery: { id: number; event: string; body: string },
): Promise<number> {
  const timestamp = Math.floor(Date.now() / 1000);
  let status: number;
  try {
    const response = await axios.post(settings.url, delivery.body, {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'guida-finanza-webhook/1',
        'X-Guida-Event': delivery.event,
        'X-Guida-Delivery': String(delivery.id),
        'X-Guida-Timestamp': String(timestamp),
        'X-Guida-Signature': signCrmBody(settings.secret, timestamp, delivery.body),
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
