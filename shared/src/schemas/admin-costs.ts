import { z } from 'zod';

/**
 * What leads cost (decision 060): the overview's costs per campaign and day, and the ad
 * spend the admin imports. Amounts of different currencies are never added together:
 * each figure is a list with one amount per currency (empty: nothing to show).
 */

/** An amount in one currency (ISO 4217). */
export const moneySchema = z.object({ currency: z.string(), amount: z.number() });
export type Money = z.infer<typeof moneySchema>;

export const leadCostSchema = z.object({
  /** The overview's campaign key: "(direct)" for leads without a campaign. */
  utmSource: z.string(),
  /** '' for leads without utm_campaign (and for a whole source's row). */
  utmCampaign: z.string(),
  /**
   * The row of a whole source, "(intera sorgente)": all of its leads and all of its spend,
   * the spend imported for the whole source (utm_campaign '') included, which no campaign
   * row counts. Only for sources with such spend in the period (or on the day).
   */
  wholeSource: z.boolean(),
  leads: z.number(),
  /** Reachable or engaged (decision 059). */
  verifiedLeads: z.number(),
  /** What Twilio billed for these leads' SMS, per currency. */
  smsCost: z.array(moneySchema),
  /** Of these leads' SMS messages, those Twilio has not priced yet: smsCost will still grow. */
  smsPricesPending: z.number(),
  /** The imported ad spend of the campaign on those days, per currency. */
  adSpend: z.array(moneySchema),
  /** (ad spend + SMS cost) ÷ leads, per currency; empty without leads. */
  costPerLead: z.array(moneySchema),
  /** (ad spend + SMS cost) ÷ verified leads, per currency; empty without verified leads. */
  costPerVerifiedLead: z.array(moneySchema),
});
export type LeadCost = z.infer<typeof leadCostSchema>;

/** The overview's `costs`: over its period, per campaign, per day and campaign, and in all. */
export const leadCostsSchema = z.object({
  byCampaign: z.array(leadCostSchema),
  /** Newest day first; only days and campaigns with leads or spend. */
  byDay: z.array(leadCostSchema.extend({ day: z.string() })),
  total: leadCostSchema.omit({ utmSource: true, utmCampaign: true, wholeSource: true }),
});
export type LeadCosts = z.infer<typeof leadCostsSchema>;

/** POST /api/admin/ad-spend/import: what a good file did. */
export const adSpendImportSchema = z.object({
  message: z.string(),
  importId: z.string(),
  rows: z.number(),
  /** Day and campaign not imported before. */
  inserted: z.number(),
  /** Day and campaign imported before: the amount was replaced. */
  replaced: z.number(),
  firstDay: z.string(),
  lastDay: z.string(),
});
export type AdSpendImport = z.infer<typeof adSpendImportSchema>;

/** Days of imported spend listed in the Costs tab (GET /api/admin/ad-spend?days=). */
export const AD_SPEND_PERIODS = ['30', '90', '365'] as const;
export const adSpendListQuerySchema = z.object({
  days: z.enum(AD_SPEND_PERIODS, { error: 'Periodo non valido: scegli 30, 90 o 365 giorni.' }).default('30').transform(Number),
});

export const adSpendListSchema = z.object({
  days: z.number(),
  rows: z.array(
    z.object({
      day: z.string(),
      utmSource: z.string(),
      utmCampaign: z.string(),
      amount: z.number(),
      currency: z.string(),
      importedAt: z.string(),
      /** The admin who imported it; null once that account is deleted. */
      importedBy: z.string().nullable(),
    }),
  ),
  /** Rows beyond the list's limit, not shown. */
  more: z.number(),
});
export type AdSpendList = z.infer<typeof adSpendListSchema>;
