import { Router } from 'express';
import twilio from 'twilio';
import { z } from 'zod';
import { SMS_FAILED_STATUSES, smsStatusFromTwilio } from '@guida/shared/deliveries/delivery-statuses';
import { scheduleEmail } from '@guida/shared/deliveries/email-deliveries';
import { applySmsProviderReport } from '@guida/shared/deliveries/sms-deliveries';
import { SMS_PRICED_STATUSES } from '@guida/shared/deliveries/sms-prices';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { SMS_STATUS_CALLBACK_ID_PARAM, SMS_STATUS_CALLBACK_PATH } from '@guida/shared/jobs/sms';
import { fetchSmsPriceJob } from '@guida/shared/jobs/sms-price';
import { apiMessages } from '@guida/shared/messages';
import type { ApiDeps } from '../dependencies';
import { forbidden } from '../errors';
import { parseOrThrow } from '../http/validate';

const statusCallbackSchema = z.object({
  MessageSid: z.string().regex(/^(SM|MM)[0-9a-f]{32}$/i),
  MessageStatus: z.string().min(1).max(32),
  ErrorCode: z.string().regex(/^\d{1,10}$/).optional(),
});

/** The worker names its SMS in the callback URL (`?sms=<id>`); older messages' URLs have no query. */
const callbackQuerySchema = z.object({ [SMS_STATUS_CALLBACK_ID_PARAM]: z.coerce.number().int().positive().max(2_147_483_647).optional() });

/** Twilio status callbacks: signature checked, repeats ignored, failures fall back to email. */
export function smsStatusRouter(deps: ApiDeps) {
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
      // Twilio signs the URL it called, query included.
      !twilio.validateRequest(authToken, signature, `${deps.config.PUBLIC_BASE_URL}${req.originalUrl}`, params as Record<string, unknown>)
    ) {
      req.log.warn('SMS status callback with a missing or wrong signature');
      throw forbidden(apiMessages.invalidSignature);
    }

    const callback = parseOrThrow(statusCallbackSchema, params);
    const query = parseOrThrow(callbackQuerySchema, req.query);
    const status = smsStatusFromTwilio(callback.MessageStatus);
    if (status) {
      const changed = await applySmsProviderReport(deps.db, {
        providerMessageId: callback.MessageSid,
        smsId: query[SMS_STATUS_CALLBACK_ID_PARAM] ?? null,
        status,
        providerStatus: callback.MessageStatus,
        errorCode: callback.ErrorCode ?? null,
      });
      if (changed) {
        const { leadId } = changed;
        deps.metrics.smsReported(status, changed.secondsSinceLead);
        req.log.info({ leadId, status }, 'SMS status updated');
        // Committed with the report: if Redis is down, the sweeper enqueues it.
        if (changed.crmDeliveryId !== null) {
          await deps.queues
            .enqueue(deliverToCrmJob, { deliveryId: changed.crmDeliveryId, leadId, event: 'lead.sms_delivered' })
            .catch((error: unknown) => {
              req.log.warn({ leadId, err: (error as Error).message }, 'lead.sms_delivered not enqueued; the sweeper will');
            });
        }
        if (SMS_FAILED_STATUSES.includes(status)) {
          await scheduleEmail({ db: deps.db, queues: deps.queues, logger: req.log }, { leadId }, 'guide-link');
        }
        // Final: Twilio bills it and reports the price later (decision 060); a lost job is swept.
        if (SMS_PRICED_STATUSES.includes(status)) {
          await deps.queues.enqueue(fetchSmsPriceJob, { messageSid: callback.MessageSid }).catch((error: unknown) => {
            req.log.warn({ leadId, err: (error as Error).message }, 'SMS price lookup not enqueued; the sweep will');
          });
        }
      }
    }
    res.status(204).end();
  });
  return router;
}
