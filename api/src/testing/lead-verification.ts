import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import twilio from 'twilio';
import { afterAll, beforeAll } from 'vitest';
import { SMS_TRANSITIONS } from '@guida/shared/deliveries/delivery-statuses';
import { EBOOK_TYPES } from '@guida/shared/lead-rules';
import { guideLinkToken, keyGuideLink } from '@guida/shared/server/guide-link-token';
import { createTestApi, type TestApi } from './test-api';

const AUTH_TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const LINK_SECRET = 'verification-test-link-secret-0123456789';
export const PHONE_BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

/**
 * What a test needs to make leads verified the way production does (decision 059): a
 * guide PDF per type to download, and the settings that let it sign Twilio's status
 * callbacks. Pass `env` to createTestApi; `remove()` after closing the API.
 */
export function verificationSetup() {
  const guidesDir = mkdtempSync(path.join(tmpdir(), 'guides-'));
  for (const type of EBOOK_TYPES) writeFileSync(path.join(guidesDir, `${type}.pdf`), `%PDF-1.4\n% ${type}\n%%EOF\n`);
  return {
    env: { TWILIO_AUTH_TOKEN: AUTH_TOKEN, GUIDES_DIR: guidesDir },
    remove: () => rmSync(guidesDir, { recursive: true, force: true }),
  };
}

let sidCounter = 0;

/** Through the API's own routes: Twilio reporting a lead's SMS, the lead opening its link. */
export function leadVerification(api: TestApi) {
  return {
    /** The worker handed the lead's SMS to Twilio under a new message sid (the SMS is `sent`). */
    async handedToTwilio(leadId: number) {
      sidCounter += 1;
      const sid = `SM${String(process.pid).padStart(8, '0')}${String(sidCounter).padStart(24, '0')}`;
      await api.db('sms_messages').where({ lead_id: leadId }).update({
        status: SMS_TRANSITIONS.recordSent.to,
        provider: 'twilio',
        provider_message_id: sid,
        sent_at: api.db.fn.now(),
      });
      return sid;
    },

    /** Twilio's signed status callback for a message (204 unless refused). */
    report(sid: string, status: string) {
      const params = { AccountSid: `AC${'0'.repeat(32)}`, MessageSid: sid, MessageStatus: status, SmsStatus: status };
      const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${api.config.PUBLIC_BASE_URL}/api/sms/status`, params);
      return request(api.app).post('/api/sms/status').type('form').set('X-Twilio-Signature', signature).send(params);
    },

    /** The lead's SMS is sent and Twilio reports it delivered. */
    async smsDelivered(leadId: number) {
      const response = await this.report(await this.handedToTwilio(leadId), 'delivered');
      if (response.status !== 204) throw new Error(`status callback answered ${response.status}`);
    },

    /** The lead's link as the worker sends it (keyed to its token); the token. */
    async linkOf(leadId: number) {
      const { token, hash } = guideLinkToken(LINK_SECRET, leadId);
      await keyGuideLink(api.db, leadId, hash);
      return token;
    },

    /** The lead opens its guide link on a phone's browser: a real download. */
    async guideDownloaded(leadId: number, userAgent = PHONE_BROWSER) {
      const response = await request(api.app).get(`/g/${await this.linkOf(leadId)}`).set('User-Agent', userAgent);
      if (response.status !== 200) throw new Error(`guide link answered ${response.status}`);
    },
  };
}

/**
 * The API of a test file that verifies leads, started before its first test and closed
 * after its last (read `api` and `verify` inside hooks and tests).
 */
export function useVerifyingApi() {
  const setup = verificationSetup();
  const context = {} as { api: TestApi; verify: ReturnType<typeof leadVerification> };
  beforeAll(async () => {
    context.api = await createTestApi(setup.env);
    context.verify = leadVerification(context.api);
  });
  afterAll(async () => {
    await context.api.close();
    setup.remove();
  });
  return context;
}
