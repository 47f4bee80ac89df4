import type { ProviderIdentity } from '@guida/shared/provider-identity';

declare global {
  /** Replaced at build time by web/vite.config.ts: the provider every page's footer names. */
  const __PROVIDER_IDENTITY__: ProviderIdentity;
}
