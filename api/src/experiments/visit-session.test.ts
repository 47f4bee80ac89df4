import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HERO_EXPERIMENTS } from '@guida/shared/experiments';
import { isSessionId } from '@guida/shared/session-id';
import {
  endOfUtcDay,
  newSessionId,
  sessionVariantOn,
  signVisitSession,
  verifyVisitSession,
  VISIT_SESSION_GRACE_MS,
  type VisitSession,
} from './visit-session';

const SECRET = 'segreto-di-prova-0123456789abcdef0123';
const experiment = HERO_EXPERIMENTS[0]!;
const now = new Date('2026-11-28T10:30:00Z');
const session: VisitSession = {
  sessionId: newSessionId(),
  variants: { [experiment.id]: 'b' },
  expiresAt: endOfUtcDay(now),
};
const token = signVisitSession(SECRET, session);
const [payload, signature] = token.split('.') as [string, string];
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const encode = (fields: unknown) => Buffer.from(JSON.stringify(fields)).toString('base64url');

describe('signed visit sessions', () => {
  it('gives back the session it signed, until the end of its UTC day and a grace period', () => {
    expect(isSessionId(session.sessionId)).toBe(true);
    expect(newSessionId()).not.toBe(session.sessionId);
    expect(session.expiresAt.toISOString()).toBe('2026-11-29T00:00:00.000Z');
    expect(verifyVisitSession(SECRET, token, now)).toEqual(session);
    const justInGrace = new Date(session.expiresAt.getTime() + VISIT_SESSION_GRACE_MS);
    expect(verifyVisitSession(SECRET, token, justInGrace)).toEqual(session);
    expect(verifyVisitSession(SECRET, token, new Date(justInGrace.getTime() + 1000))).toBeNull();
  });

  it('takes nothing the API did not sign', () => {
    const otherVariant = encode({ s: session.sessionId, v: { [experiment.id]: 'c' }, e: session.expiresAt.getTime() / 1000 });
    const otherSession = encode({ s: newSessionId(), v: session.variants, e: session.expiresAt.getTime() / 1000 });
    const later = encode({ s: session.sessionId, v: session.variants, e: session.expiresAt.getTime() / 1000 + 86_400 });
    // The first character carries six bits of the MAC; the last one's two spare bits are
    // another spelling of the same bytes, refused too.
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const lastCharacter = signature.at(-1)!;
    const respelled = `${signature.slice(0, -1)}${ALPHABET[ALPHABET.indexOf(lastCharacter) ^ 1]}`;
    for (const forged of [
      `${otherVariant}.${signature}`,
      `${otherSession}.${signature}`,
      `${later}.${signature}`,
      `${payload}.${flipped}`,
      `${payload}.${respelled}`,
      `${payload}.${signature.slice(0, 20)}`,
      `${payload}.`,
      payload,
      `${payload}.${signature}.${signature}`,
      signVisitSession('un-altro-segreto-0123456789abcdef0123', session),
      '',
      null,
      `${payload}.${signature}${'A'.repeat(1000)}`,
    ]) {
      expect(verifyVisitSession(SECRET, forged, now), String(forged).slice(0, 60)).toBeNull();
    }
  });

  it('refuses a well-signed payload of the wrong shape', () => {
    // Signed with the API's key (derived from the secret as visit-session.ts derives it).
    const key = createHmac('sha256', SECRET).update('visit-session-token').digest();
    const signedAs = (body: string) => `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
    const e = session.expiresAt.getTime() / 1000;
    expect(verifyVisitSession(SECRET, signedAs(encode({ s: session.sessionId, v: session.variants, e })), now)).toEqual(session);
    for (const body of [
      Buffer.from('not json').toString('base64url'),
      encode([session.sessionId, session.variants, e]),
      encode({ s: 'corto', v: session.variants, e }),
      encode({ s: session.sessionId, v: { [experiment.id]: 1 }, e }),
      encode({ s: session.sessionId, v: null, e }),
      encode({ s: session.sessionId, v: session.variants, e: String(e) }),
    ]) {
      expect(verifyVisitSession(SECRET, signedAs(body), now), body).toBeNull();
    }
  });

  it("reads the variant of the experiment on a path, and none elsewhere or without a session", () => {
    expect(sessionVariantOn(session, experiment.path)).toBe('b');
    expect(sessionVariantOn(session, '/oro-svizzera')).toBeNull();
    expect(sessionVariantOn(session, null)).toBeNull();
    expect(sessionVariantOn(null, experiment.path)).toBeNull();
    expect(sessionVariantOn({ ...session, variants: {} }, experiment.path)).toBeNull();
  });
});
