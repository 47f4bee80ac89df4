import { createHmac } from 'node:crypto';

/**
 * Signatures of the webhooks the worker posts, the CRM's (decision 035) and the alerts'
 * (decision 039): Standard Webhooks (https://www.standardwebhooks.com/) in
 * `webhook-signature`, and for one release the CRM's deprecated X-Guida-Signature.
 */

const PREFIX = 'whsec_';
/** The key sizes Standard Webhooks recommends. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
/** What earlier releases accepted, still taken for one release. */
const MIN_DEPRECATED_LENGTH = 16;
const PADDED_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const GENERATE_SECRET_COMMAND = `node -e "console.log('${PREFIX}' + require('node:crypto').randomBytes(32).toString('base64'))"`;

/**
 * Why `secret` cannot sign a webhook, in English for the start-up error, or null
 * when it can. Never quotes the secret.
 */
export function webhookSecretProblem(secret: string): string | null {
  const generate = `generate one with: ${GENERATE_SECRET_COMMAND}`;
  if (secret.startsWith(PREFIX)) {
    const encoded = secret.slice(PREFIX.length);
    if (!PADDED_BASE64.test(encoded)) {
      return `must be "${PREFIX}" followed by standard base64 (A-Z, a-z, 0-9, + and /, padded with =); ${generate}`;
    }
    const bytes = Buffer.from(encoded, 'base64').length;
    if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES) {
      return `must encode ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} bytes after "${PREFIX}" (it encodes ${bytes}); ${generate}`;
    }
    return null;
  }
  // A mistyped prefix would otherwise pass as a secret of the old form.
  if (/^\s*whsec/i.test(secret)) return `must start with exactly "${PREFIX}" (lowercase, then an underscore)`;
  if (secret.length < MIN_DEPRECATED_LENGTH) {
    return `must be a Standard Webhooks secret, "${PREFIX}" followed by the base64 of ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} random bytes; ${generate}`;
  }
  return null;
}

/** A secret of the form earlier releases took (any text of 16+ characters), accepted for one release. */
export const isDeprecatedSecretForm = (secret: string) => !secret.startsWith(PREFIX);

/**
 * The HMAC key of a valid secret: the bytes after `whsec_`, or the UTF-8 bytes of a
 * secret of the old form (which Standard Webhooks receivers get as
 * `Buffer.from(secret).toString('base64')`).
 */
export function webhookSigningKey(secret: string): Buffer {
  return isDeprecatedSecretForm(secret) ? Buffer.from(secret, 'utf8') : Buffer.from(secret.slice(PREFIX.length), 'base64');
}

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per
 * key, space-separated, so a receiver holding any one of the keys accepts it.
 */
function standardWebhookSignature(keys: readonly Buffer[], id: string, timestamp: number, body: string) {
  return keys
    .map((key) => `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
}

/** The three Standard Webhooks headers of one request, signed with each key. */
export const standardWebhookHeaders = (keys: readonly Buffer[], id: string, timestamp: number, body: string) => ({
  'webhook-id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': standardWebhookSignature(keys, id, timestamp, body),
});

/**
 * Deprecated X-Guida-Signature: `sha256=<hex>` of HMAC-SHA256 keyed by the secret's text
 * as written, of "<timestamp>.<body>". Sent for one release beside the Standard Webhooks headers.
 */
export function deprecatedGuidaSignature(secret: string, timestamp: number, body: string) {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
