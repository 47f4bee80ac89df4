/**
 * The provider's identity as every public page states it in its footer (d.lgs. 70/2003
 * art. 7: name, address, VAT number; REA number and share capital when set), from the
 * configuration (providerEnv in config.ts). Shared by the prerendered pages and the pages
 * the API renders itself.
 */
export interface ProviderIdentity {
  name: string;
  address: string;
  vatNumber: string;
  rea?: string;
  shareCapital?: string;
}

/** What a local build shows when the provider is not configured (a deployment refuses to start). */
export const UNCONFIGURED_PROVIDER: ProviderIdentity = {
  name: 'Fornitore da configurare (PRIVACY_CONTROLLER_NAME)',
  address: 'indirizzo da configurare (PRIVACY_CONTROLLER_ADDRESS)',
  vatNumber: 'da configurare (PRIVACY_CONTROLLER_VAT)',
};

export function providerIdentityOf(config: {
  PRIVACY_CONTROLLER_NAME?: string | undefined;
  PRIVACY_CONTROLLER_ADDRESS?: string | undefined;
  PRIVACY_CONTROLLER_VAT?: string | undefined;
  PRIVACY_CONTROLLER_REA?: string | undefined;
  PRIVACY_CONTROLLER_SHARE_CAPITAL?: string | undefined;
}): ProviderIdentity {
  // `||`: an empty value (a blank line in .env) is unset, as parseEnv reads it.
  return {
    name: config.PRIVACY_CONTROLLER_NAME || UNCONFIGURED_PROVIDER.name,
    address: config.PRIVACY_CONTROLLER_ADDRESS || UNCONFIGURED_PROVIDER.address,
    vatNumber: config.PRIVACY_CONTROLLER_VAT || UNCONFIGURED_PROVIDER.vatNumber,
    ...(config.PRIVACY_CONTROLLER_REA ? { rea: config.PRIVACY_CONTROLLER_REA } : {}),
    ...(config.PRIVACY_CONTROLLER_SHARE_CAPITAL ? { shareCapital: config.PRIVACY_CONTROLLER_SHARE_CAPITAL } : {}),
  };
}

/** The footer's lines, in Italian: who provides the service, then its registration data. */
export function providerIdentityLines(provider: ProviderIdentity): [string, string] {
  const registration = [
    `P. IVA ${provider.vatNumber}`,
    ...(provider.rea ? [`REA ${provider.rea}`] : []),
    ...(provider.shareCapital ? [`Capitale sociale ${provider.shareCapital}`] : []),
  ];
  return [`Servizio fornito da ${provider.name}, ${provider.address}`, registration.join(' · ')];
}
