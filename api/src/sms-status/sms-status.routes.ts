import { Router } from 'express';
import twilio from 'twilio';
import { z } from 'zod';
import {
  SMS_FAILED_STATUSES,
  SMS_STATUS_CALLBACK_PATH,
  smsStatusFromTwilio,
} from '@guida/shared/delivery-status';
import { apiMessages } from '@guida/shared/messages';
import { sendGuideLinkByEmail } from '@guida/shared/server/guide-email-fallback';
import type { ApiDeps } from '../dependencies';
import { forbidden } from '../errors';
import { parseOrThrow } from '../http/validate';
import { applyStatusUpdate } from './sms-status.repo';

const statusCallbackSchema = z.object({
  MessageSid: z.string().regex(/^(SM|MM)[0-9a-f]{32}$/i),
  MessageStatus: z.string().min(1).max(32),
  ErrorCode: z.string().regex(/^\d{1,10}$/).optional(),
});

/** Twilio status callbacks: signature checked, repeats ignored, failures fall back to email. */
export function smsStatusRouter(deps: ApiDeps) {
  const callbackUrl = `${deps.config.PUBLIC_BASE_URL}${SMS_STATUS_CALLBACK_PATH}`;
  const router = Router();

  router.post(SMS_STATUS_CALLBACK_PATH, async (req, res) => {
    const authToken = deps.config.TWILIO_AUTH_TOKEN;
    const signature = req.get('x-twilio-signature');
    const params: unknown = req.body;
    if (
      !authToken ||
      !signature ||
      typeof params !== 'object' ||
      params === null ||
      !twilio.validateRequest(authToken, signature, callbackUrl, params as Record<string, unknown>)
    ) {
      req.log.warn('SMS status callback with a missing or wrong signature');
      throw forbidden(apiMessages.invalidSignature);
    }

    const callback = parseOrThrow(statusCallbackSchema, params);
    const status = smsStatusFromTwilio(callback.MessageStatus);
    if (status) {
      const leadId = await applyStatusUpdate(deps.db, {
        providerMessageId: callback.MessageSid,
        status,
        providerStatus: callback.MessageStatus,
        errorCode: callback.ErrorCode ?? null,
      });
      if (leadId !== null) {
        req.log.info({ leadId, status }, 'SMS status updated');
        if (SMS_FAILED_STATUSES.includes(status)) {
          await sendGuideLinkByEmail({ db: deps.db, queues: deps.queues, logger: req.log }, leadId);
        }
      }
    }
    res.status(204).end();
  });
  return router;
}
