export { useSiteSettings, useSmsCopy } from './use-site-settings';
