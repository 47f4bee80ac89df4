/** What other features may use of the admin area: its audit log, for changes no admin made. */
export { auditConfigurationChange, CONFIGURATION_ACTOR } from './audit-log';
