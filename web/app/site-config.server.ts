import { z } from 'zod';
import { parseEnv, requireControllerWhenPublic, siteEnv, smsCopyEnv, smsSenderShown } from '@guida/shared/config';
import type { SmsCopy } from './content/thank-you';

/** Build-time settings of the prerendered pages (read by loaders only). */
export const siteConfig = parseEnv(
  z.object({ ...siteEnv, ...smsCopyEnv }).superRefine(requireControllerWhenPublic),
  process.env,
);

/** The SMS copy of the prerendered pages; the API's /api/site-settings replaces it after hydration. */
export const buildSmsCopy: SmsCopy = {
  sender: smsSenderShown(siteConfig),
  linkDays: siteConfig.GUIDE_LINK_TTL_DAYS,
  heldEmailMinutes: siteConfig.SMS_HELD_EMAIL_AFTER_MINUTES,
};

/** Placeholders for local builds; a public (https) build requires the real values. */
export const controller = {
  name: siteConfig.PRIVACY_CONTROLLER_NAME ?? 'Titolare del trattamento (da configurare: PRIVACY_CONTROLLER_NAME)',
  address: siteConfig.PRIVACY_CONTROLLER_ADDRESS ?? 'Indirizzo da configurare (PRIVACY_CONTROLLER_ADDRESS)',
  email: siteConfig.PRIVACY_CONTACT_EMAIL ?? 'privacy@example.invalid',
  ...(siteConfig.PRIVACY_CONTROLLER_VAT ? { vatNumber: siteConfig.PRIVACY_CONTROLLER_VAT } : {}),
};
