import { Router } from 'express';
import { dateRangeQuerySchema, funnelQuerySchema, type FunnelReport } from '@guida/shared/schemas/admin';
import type { ApiDeps } from '../../dependencies';
import { parseOrThrow } from '../../http/validate';
import { consentReport, timeToSms } from './admin-reports.repo';
import { abandonedFields, funnelWithVerifiedLeads, timeOnPage } from './funnel.repo';
import { reportRange } from './report-range';

/** The funnel with time to SMS, and the cookie-consent rates, over a range of days. */
export function adminReportsRouter(deps: ApiDeps) {
  const router = Router();

  router.get('/funnel', async (req, res) => {
    const { from, to, ...filters } = parseOrThrow(funnelQuerySchema, req.query);
    const filter = { ...reportRange({ from, to }), ...filters };
    const [days, pages, abandonment, delays] = await Promise.all([
      funnelWithVerifiedLeads(deps.db, filter),
      timeOnPage(deps.db, filter),
      abandonedFields(deps.db, filter),
      timeToSms(deps.db, filter),
    ]);
    const report: FunnelReport = {
      days: days.map((row) => ({
        day: row.day,
        landingPath: row.landing_path,
        utmSource: row.utm_source,
        utmMedium: row.utm_medium,
        utmCampaign: row.utm_campaign,
        utmTerm: row.utm_term,
        utmContent: row.utm_content,
        heroVariant: row.hero_variant,
        landing: row.landing,
        formView: row.form_view,
        formStart: row.form_start,
        formSubmit: row.form_submit,
        success: row.success,
        smsDelivered: row.sms_delivered,
        guideOpened: row.guide_opened,
      })),
      timeOnPage: pages.map((row) => ({
        path: row.path,
        exits: row.exits,
        medianSeconds: row.median_seconds,
        averageSeconds: row.average_seconds,
      })),
      abandonment: abandonment.map((row) => ({ path: row.path, fieldName: row.field_name, sessions: row.sessions })),
      timeToSms: delays.map((row) => ({
        day: row.day,
        sent: row.sent,
        p50Seconds: row.p50_seconds,
        p95Seconds: row.p95_seconds,
      })),
    };
    res.json(report);
  });

  router.get('/consents', async (req, res) => {
    res.json(await consentReport(deps.db, reportRange(parseOrThrow(dateRangeQuerySchema, req.query))));
  });

  return router;
}
