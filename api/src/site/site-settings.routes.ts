import { Router } from 'express';
import { smsSenderShown } from '@guida/shared/config';
import type { SiteSettings } from '@guida/shared/schemas/site-settings';
import type { ApiDeps } from '../dependencies';
import { offerOf } from '../offer';

/**
 * GET /api/site-settings: the runtime configuration the browser needs, and whether the
 * offer has ended (decision 047). Browsers keep it a minute: an offer that has just ended
 * may show its form that much longer, and a request sent from it gets the intake's 410 (the
 * form then shows the ended offer); a deadline the page already knows ends it on time.
 */
export function siteSettingsRouter(deps: ApiDeps) {
  const offer = offerOf(deps);
  const settings = {
    gaMeasurementId: deps.config.GA_MEASUREMENT_ID ?? null,
    offerEndsAt: deps.config.OFFER_ENDS_AT ?? null,
    smsSender: smsSenderShown(deps.config),
    guideLinkDays: deps.config.GUIDE_LINK_TTL_DAYS,
    smsHeldEmailAfterMinutes: deps.config.SMS_HELD_EMAIL_AFTER_MINUTES,
  };
  const router = Router();
  router.get('/api/site-settings', async (_req, res) => {
    // Without the database the places cannot be counted: the intake decides then.
    const offerEndReason = await offer.endReason().catch((error: unknown) => {
      deps.logger.warn({ err: (error as Error).message }, 'places taken not counted for the site settings');
      return offer.knownEndReason();
    });
    const answer: SiteSettings = { ...settings, offerEnded: offerEndReason !== null, offerEndReason };
    res.set('Cache-Control', 'public, max-age=60').json(answer);
  });
  return router;
}
