import { describe, expect, it } from 'vitest';
import { secretBox } from './secret-box';

describe('TOTP secrets at rest', () => {
  it('opens only under the same key and for the same user', () => {
    const box = secretBox('k'.repeat(32));
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'admin-totp:7');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'admin-totp:7')).not.toBe(sealed);
    expect(box.open(sealed, 'admin-totp:7')).toBe('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'admin-totp:8')).toBeNull();
    expect(secretBox('j'.repeat(32)).open(sealed, 'admin-totp:7')).toBeNull();
    // One bit of the ciphertext flipped (not a base64 character, whose last bits may be padding).
    const [version, iv, body] = sealed.split('.');
    const bytes = Buffer.from(body!, 'base64url');
    bytes.writeUInt8(bytes.readUInt8(0) ^ 1, 0);
    expect(box.open(`${version}.${iv}.${bytes.toString('base64url')}`, 'admin-totp:7')).toBeNull();
    expect(box.open('not-sealed', 'admin-totp:7')).toBeNull();
  });
});
