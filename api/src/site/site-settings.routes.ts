import { Router } from 'express';
import { smsSenderShown } from '@guida/shared/config';
import type { SiteSettings } from '@guida/shared/schemas/site-settings';
import type { ApiDeps } from '../dependencies';

/** GET /api/site-settings: the runtime configuration the browser needs. */
export function siteSettingsRouter(deps: ApiDeps) {
  const settings: SiteSettings = {
    gaMeasurementId: deps.config.GA_MEASUREMENT_ID ?? null,
    offerEndsAt: deps.config.OFFER_ENDS_AT ?? null,
    smsSender: smsSenderShown(deps.config),
    guideLinkDays: deps.config.GUIDE_LINK_TTL_DAYS,
  };
  const router = Router();
  router.get('/api/site-settings', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=60').json(settings);
  });
  return router;
}
