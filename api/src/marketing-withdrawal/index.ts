/**
 * The front door of the marketing withdrawal (decision 022): the admin's "Revoca il
 * consenso marketing" does what the emailed link does.
 */
export { withdrawMarketingConsent } from './withdrawal.service';
export { marketingWithdrawalRouter } from './withdrawal.routes';
