import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of the admins' TOTP secrets: AES-256-GCM under a key derived (HKDF)
 * from ADMIN_SECOND_FACTOR_KEY, each ciphertext bound to its user (additional data), so a
 * database dump, a backup or an SQL injection yields nothing usable, and a row copied onto
 * another user does not open. The key lives only in the API's environment.
 */
const VERSION = 'v1';

export function secretBox(keyMaterial: string) {
  const key = Buffer.from(hkdfSync('sha256', keyMaterial, 'guida-admin-second-factor', 'totp-secret-v1', 32));
  return {
    seal(plain: string, context: string) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },

    /** The plain text, or null when it was sealed under another key or for another context. */
    open(sealed: string, context: string): string | null {
      const [version, iv, body] = sealed.split('.');
      if (version !== VERSION || !iv || !body) return null;
      try {
        const bytes = Buffer.from(body, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(bytes.subarray(bytes.length - 16));
        return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
