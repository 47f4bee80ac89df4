import { Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { ATTRIBUTION_COLUMNS } from '@guida/shared/attribution-rules';
import { reopenCrmDelivery } from '@guida/shared/deliveries/crm-deliveries';
import { reopenSms } from '@guida/shared/deliveries/sms-deliveries';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { sendGuideSmsJob } from '@guida/shared/jobs/sms';
import { marketingWithdrawalMessages } from '@guida/shared/marketing-withdrawal';
import { adminMessages } from '@guida/shared/messages';
import { leadFiltersSchema, leadListQuerySchema, type LeadFilters } from '@guida/shared/schemas/admin';
import { csvStream, operatorDateTime } from '@guida/shared/server/csv';
import type { ApiDeps } from '../../dependencies';
import { AppError, notFound } from '../../errors';
import { parseOrThrow } from '../../http/validate';
import { withdrawMarketingConsent } from '../../marketing-withdrawal';
import { auditAdminAction } from '../audit-log';
import { exportPages, findLeadDetail, leadExists, listLeads } from './admin-leads.repo';

const leadIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

/** Attribution columns beyond the first three, added after the existing columns (files read by position keep working). */
const ADDED_ATTRIBUTION_COLUMNS = ATTRIBUTION_COLUMNS.filter(
  (column) => !['utm_source', 'utm_medium', 'utm_campaign'].includes(column),
);
const CSV_HEADER = [
  'id',
  'data (ora di Roma)',
  'nome',
  'cognome',
  'email',
  'telefono',
  'paese',
  'guida',
  'fonte',
  'pagina',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'consenso_privacy',
  'consenso_marketing',
  'versione_consenso',
  'versione_consenso_marketing',
  'stato_sms',
  'stato_crm',
  ...ADDED_ATTRIBUTION_COLUMNS,
  'variante_hero',
  'consenso_marketing_revocato_il',
  'marketing_soppresso_dal',
  // Google Consent Mode v2's names and values, as the ad platforms' uploads take them (decision 049).
  'ad_user_data',
  'ad_personalization',
  // Verification (decision 059): SMS delivered, guide opened, and either.
  'sms_consegnato_il',
  'guida_aperta_il',
  'verificato',
];

/** The names of the filters an export used, in a stable order. */
const usedFilters = (filters: LeadFilters) =>
  Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name)
    .sort();

/**
 * Leads: list, CSV export, detail, sending the SMS or the CRM delivery again, and
 * withdrawing the marketing consent on the person's behalf.
 */
export function adminLeadsRouter(deps: ApiDeps) {
  const router = Router();

  const leadId = (raw: unknown) => {
    const id = leadIdSchema.safeParse(raw);
    if (!id.success) throw notFound(adminMessages.leadNotFound);
    return id.data;
  };

  router.get('/leads', async (req, res) => {
    const { page, pageSize, order, ...filters } = parseOrThrow(leadListQuerySchema, req.query);
    res.json(await listLeads(deps.db, deps.config.SUPPRESSION_HASH_SECRET, filters, page, pageSize, order));
  });

  router.get('/leads/export.csv', async (req, res) => {
    const filters = parseOrThrow(leadFiltersSchema, req.query);
    // Which filters, never what was searched for (a name, an address, a phone number).
    await auditAdminAction(deps.db, req, { action: 'export_leads_csv', details: { filters: usedFilters(filters) } });
    const day = new Date().toISOString().slice(0, 10);
    res.set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="lead-${day}.csv"`,
    });
    const csv = csvStream(CSV_HEADER, exportPages(deps.db, deps.config.SUPPRESSION_HASH_SECRET, filters), (row) => [
      row.id,
      operatorDateTime(row.created_at),
      row.nome,
      row.cognome,
      row.email,
      row.telefono,
      row.country,
      row.ebook_type,
      row.source,
      row.landing_path,
      row.utm_source,
      row.utm_medium,
      row.utm_campaign,
      row.gdpr_consent ? 'sì' : 'no',
      row.marketing_consent ? 'sì' : 'no',
      row.consent_version,
      row.marketing_consent_version,
      row.sms_status,
      row.crm_status,
      ...ADDED_ATTRIBUTION_COLUMNS.map((column) => row[column]),
      row.hero_variant,
      operatorDateTime(row.marketing_consent_withdrawn_at),
      operatorDateTime(row.marketing_suppressed_at),
      row.ad_user_data,
      row.ad_personalization,
      operatorDateTime(row.reachable_at),
      operatorDateTime(row.engaged_at),
      row.reachable_at || row.engaged_at ? 'sì' : 'no',
    ]);
    await pipeline(csv, res).catch((error: unknown) => {
      // Headers are gone: the broken download is all the admin can see; the log says why.
      deps.logger.error({ err: (error as Error).message }, 'CSV export interrupted');
      res.destroy();
    });
  });

  router.get('/leads/:id', async (req, res) => {
    const detail = await findLeadDetail(deps.db, deps.config.SUPPRESSION_HASH_SECRET, leadId(req.params.id));
    if (!detail) throw notFound(adminMessages.leadNotFound);
    res.json(detail);
  });

  router.post('/leads/:id/resend-sms', async (req, res) => {
    const id = leadId(req.params.id);
    if (!(await leadExists(deps.db, id))) throw notFound(adminMessages.leadNotFound);
    const smsId = await reopenSms(deps.db, id, deps.config.GUIDE_LINK_TTL_DAYS, 'admin-resend');
    if (smsId === null) throw new AppError(409, 'no_sms', adminMessages.noSms);
    // If Redis is down the row stays pending and the sweeper enqueues it later.
    await deps.queues.enqueueAgain(sendGuideSmsJob, [{ leadId: id }]).catch((error: unknown) => {
      deps.logger.warn({ leadId: id, err: (error as Error).message }, 'resend not queued; the sweeper will');
    });
    await auditAdminAction(deps.db, req, { action: 'resend_sms', target: { type: 'lead', id } });
    res.status(202).json({ message: adminMessages.smsRequeued });
  });

  router.post('/leads/:id/redeliver-crm', async (req, res) => {
    const id = leadId(req.params.id);
    if (!(await leadExists(deps.db, id))) throw notFound(adminMessages.leadNotFound);
    const deliveryId = await reopenCrmDelivery(deps.db, id);
    if (deliveryId === null) throw new AppError(409, 'no_crm_delivery', adminMessages.noCrmDelivery);
    await deps.queues
      .enqueueAgain(deliverToCrmJob, [{ deliveryId, leadId: id, event: 'lead.created' }])
      .catch((error: unknown) => {
        deps.logger.warn({ leadId: id, err: (error as Error).message }, 'redelivery not queued; the sweeper will');
      });
    await auditAdminAction(deps.db, req, { action: 'redeliver_crm', target: { type: 'lead', id } });
    res.status(202).json({ message: adminMessages.crmRequeued });
  });

  // What the link in the person's emails does (decision 048), for a person who asked by
  // phone or by letter: their consent, the suppression list, the CRM.
  router.post('/leads/:id/withdraw-marketing', async (req, res) => {
    const id = leadId(req.params.id);
    const result = await withdrawMarketingConsent(deps, req.log, id, { source: 'admin', ipAddress: null, userAgent: null });
    if (result.outcome === 'not_found') throw notFound(adminMessages.leadNotFound);
    await auditAdminAction(deps.db, req, {
      action: 'withdraw_marketing_consent',
      target: { type: 'lead', id },
      details: result.outcome === 'withdrawn' ? { leadIds: result.leadIds } : { alreadyWithdrawn: true },
    });
    res.json({
      message: result.outcome === 'withdrawn' ? marketingWithdrawalMessages.withdrawn : marketingWithdrawalMessages.alreadyWithdrawn,
    });
  });

  return router;
}
