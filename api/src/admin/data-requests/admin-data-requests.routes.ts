import { Router } from 'express';
import { z } from 'zod';
import { gdprAdminMessages } from '@guida/shared/gdpr-messages';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { GDPR_JOB_FOR_REQUEST_TYPE } from '@guida/shared/jobs/gdpr';
import { adminMessages } from '@guida/shared/messages';
import { dataRequestListQuerySchema } from '@guida/shared/schemas/admin';
import { consentHistoryQuerySchema, processDataRequestSchema, rectifyLeadSchema } from '@guida/shared/schemas/gdpr';
import { scheduleEmail } from '@guida/shared/deliveries/email-deliveries';
import type { ApiDeps } from '../../dependencies';
import { AppError, notFound } from '../../errors';
import { parseOrThrow } from '../../http/validate';
import { signedIn } from '../admin-auth';
import { audit } from '../audit-log';
import { consentHistory, listDataRequests, rectifyLead, startProcessing } from './admin-data-requests.repo';

const idSchema = z.coerce.number().int().positive().max(2_147_483_647);

/**
 * The admin's side of the data rights, relative to /api/admin and mounted behind its
 * guard (admin session, same origin, CSRF token): the requests and their processing, a
 * person's consent history, and rectifying a lead. The processing itself runs as worker
 * jobs (queue gdpr); every action is audited.
 */
export function adminDataRequestsRouter(deps: ApiDeps) {
  const router = Router();
  const parseId = (raw: unknown, message: string) => {
    const id = idSchema.safeParse(raw);
    if (!id.success) throw notFound(message);
    return id.data;
  };
  const actor = (req: Parameters<typeof signedIn>[0]) => {
    const { user } = signedIn(req);
    return { userId: user.id, username: user.username };
  };

  router.get('/data-requests', async (req, res) => {
    const { status, page, pageSize } = parseOrThrow(dataRequestListQuerySchema, req.query);
    res.json(await listDataRequests(deps.db, { status }, page, pageSize));
  });

  router.post('/data-requests/:id/process', async (req, res) => {
    const id = parseId(req.params.id, gdprAdminMessages.requestNotFound);
    const { action, notes } = parseOrThrow(processDataRequestSchema, req.body);
    const who = actor(req);
    const outcome = await startProcessing(deps.db, id, { action, notes, adminId: who.userId });
    if (!outcome.ok) {
      if (outcome.reason === 'not_found') throw notFound(gdprAdminMessages.requestNotFound);
      throw outcome.reason === 'not_confirmed'
        ? new AppError(409, 'not_confirmed', gdprAdminMessages.notConfirmed)
        : new AppError(409, 'already_handled', gdprAdminMessages.alreadyHandled);
    }
    const logger = req.log;
    if (action === 'reject') {
      await scheduleEmail({ db: deps.db, queues: deps.queues, logger }, { dataRequestId: id }, 'gdpr-rejected');
    } else {
      // If Redis is down the request stays "processing" and the sweeper enqueues the job.
      await deps.queues
        .enqueue(GDPR_JOB_FOR_REQUEST_TYPE[outcome.requestType], { dataRequestId: id })
        .catch((error: unknown) => {
          logger.warn({ dataRequestId: id, err: (error as Error).message }, 'data request job not enqueued; the sweeper will');
        });
    }
    await audit(deps.db, req, {
      ...who,
      action: 'process_data_request',
      target: { type: 'data_request', id },
      details: { decision: action, requestType: outcome.requestType },
    });
    res.status(202).json({
      message: action === 'reject' ? gdprAdminMessages.rejected : gdprAdminMessages.processing[outcome.requestType],
    });
  });

  router.get('/consent-history', async (req, res) => {
    const { email } = parseOrThrow(consentHistoryQuerySchema, req.query);
    const history = await consentHistory(deps.db, email);
    // Who looked, and how much they saw; never the address looked up.
    await audit(deps.db, req, {
      ...actor(req),
      action: 'view_consent_history',
      details: { consents: history.consents.length, leads: history.leads.length },
    });
    res.json(history);
  });

  router.post('/leads/:id/rectify', async (req, res) => {
    const leadId = parseId(req.params.id, adminMessages.leadNotFound);
    const { dataRequestId, ...values } = parseOrThrow(rectifyLeadSchema, req.body);
    const result = await rectifyLead(deps.db, leadId, values);
    if (!result) throw notFound(adminMessages.leadNotFound);
    if (result.crmDeliveryId === null) {
      res.json({ message: gdprAdminMessages.nothingChanged });
      return;
    }
    await deps.queues
      .enqueue(deliverToCrmJob, { deliveryId: result.crmDeliveryId, leadId, event: 'lead.updated' })
      .catch((error: unknown) => {
        req.log.warn({ leadId, err: (error as Error).message }, 'lead.updated not enqueued; the sweeper will');
      });
    await audit(deps.db, req, {
      ...actor(req),
      action: 'rectify_lead',
      target: { type: 'lead', id: leadId },
      // Which fields, never their values.
      details: { fields: result.changed, ...(dataRequestId ? { dataRequestId } : {}) },
    });
    res.status(202).json({ message: gdprAdminMessages.rectified });
  });

  return router;
}
