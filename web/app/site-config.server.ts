import { z } from 'zod';
import { parseEnv, requireControllerWhenPublic, siteEnv } from '@guida/shared/config';

/** Build-time settings of the prerendered pages (read by loaders only). */
export const siteConfig = parseEnv(z.object(siteEnv).superRefine(requireControllerWhenPublic), process.env);

/** Placeholders for local builds; a public (https) build requires the real values. */
export const controller = {
  name: siteConfig.PRIVACY_CONTROLLER_NAME ?? 'Titolare del trattamento (da configurare: PRIVACY_CONTROLLER_NAME)',
  address: siteConfig.PRIVACY_CONTROLLER_ADDRESS ?? 'Indirizzo da configurare (PRIVACY_CONTROLLER_ADDRESS)',
  email: siteConfig.PRIVACY_CONTACT_EMAIL ?? 'privacy@example.invalid',
  ...(siteConfig.PRIVACY_CONTROLLER_VAT ? { vatNumber: siteConfig.PRIVACY_CONTROLLER_VAT } : {}),
};
