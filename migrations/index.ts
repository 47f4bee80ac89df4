/**
 * The migrations, listed in order. Knex reads them from this list instead of scanning a
 * folder, so they are bundled and type-checked like the rest of the code.
 */
import type { Knex } from 'knex';
import * as coreSchema from './20261122090000_core_schema';
import * as analyticsIngest from './20261122120000_analytics_ingest';
import * as admin from './20261122150000_admin';
import * as gdpr from './20261122170000_gdpr';
import * as funnelDaily from './20261123090000_funnel_daily';
import * as dropUnusedAnalyticsIndexes from './20261123100000_drop_unused_analytics_indexes';
import * as sendingStatus from './20261124090000_sending_status';
import * as emailSendingStatus from './20261124120000_email_sending_status';
import * as smsHeldStatus from './20261124200000_sms_held_status';
import * as auditLogWithoutPersonalData from './20261124202000_audit_log_without_personal_data';
import * as repeatRequestsAndHashedLinkTokens from './20261124203000_repeat_requests_and_hashed_link_tokens';
import * as claimSmsWithinBudgets from './20261125090000_claim_sms_within_budgets';
import * as marketingConsentVersion from './20261126090000_marketing_consent_version';
import * as alertIncidents from './20261127090000_alert_incidents';
import * as leadAttribution from './20261127100000_lead_attribution';
import * as heroExperiments from './20261128120000_hero_experiments';
import * as funnelByCampaignAndVariant from './20261129090000_funnel_by_campaign_and_variant';
import * as directSourceInFunnelRollup from './20261130090000_direct_source_in_funnel_rollup';
import * as offerPlaces from './20261201130000_offer_places';
import * as marketingWithdrawalAndSuppression from './20261201140000_marketing_withdrawal_and_suppression';
import * as leadAdConsent from './20261202090000_lead_ad_consent';
import * as smsTrustAndClientBudgets from './20261204090000_sms_trust_and_client_budgets';
import * as adminSecondFactor from './20261204120000_admin_second_factor';
import * as workerHeartbeats from './20261205090000_worker_heartbeats';
import * as verifiedLeads from './20261206090000_verified_leads';
import * as smsPriceAndAdSpend from './20261206100000_sms_price_and_ad_spend';
import * as conversionUploads from './20261206110000_conversion_uploads';
import * as smsPricesPerMessage from './20261206120000_sms_prices_per_message';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: Record<string, Migration> = {
  '20261122090000_core_schema': coreSchema,
  '20261122120000_analytics_ingest': analyticsIngest,
  '20261122150000_admin': admin,
  '20261122170000_gdpr': gdpr,
  '20261123090000_funnel_daily': funnelDaily,
  '20261123100000_drop_unused_analytics_indexes': dropUnusedAnalyticsIndexes,
  '20261124090000_sending_status': sendingStatus,
  '20261124120000_email_sending_status': emailSendingStatus,
  '20261124200000_sms_held_status': smsHeldStatus,
  '20261124202000_audit_log_without_personal_data': auditLogWithoutPersonalData,
  '20261124203000_repeat_requests_and_hashed_link_tokens': repeatRequestsAndHashedLinkTokens,
  '20261125090000_claim_sms_within_budgets': claimSmsWithinBudgets,
  '20261126090000_marketing_consent_version': marketingConsentVersion,
  '20261127090000_alert_incidents': alertIncidents,
  '20261127100000_lead_attribution': leadAttribution,
  '20261128120000_hero_experiments': heroExperiments,
  '20261129090000_funnel_by_campaign_and_variant': funnelByCampaignAndVariant,
  '20261130090000_direct_source_in_funnel_rollup': directSourceInFunnelRollup,
  '20261201130000_offer_places': offerPlaces,
  '20261201140000_marketing_withdrawal_and_suppression': marketingWithdrawalAndSuppression,
  '20261202090000_lead_ad_consent': leadAdConsent,
  '20261204090000_sms_trust_and_client_budgets': smsTrustAndClientBudgets,
  '20261204120000_admin_second_factor': adminSecondFactor,
  '20261205090000_worker_heartbeats': workerHeartbeats,
  '20261206090000_verified_leads': verifiedLeads,
  '20261206100000_sms_price_and_ad_spend': smsPriceAndAdSpend,
  '20261206110000_conversion_uploads': conversionUploads,
  '20261206120000_sms_prices_per_message': smsPricesPerMessage,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = migrations[name];
    if (!migration) throw new Error(`Unknown migration ${name}`);
    return migration;
  },
};

export const migrationConfig: Knex.MigratorConfig = { migrationSource };
