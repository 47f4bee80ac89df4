import type { Knex } from 'knex';
import type { VariantCounts } from '@guida/shared/experiment-stats';
import type { HeroExperiment } from '@guida/shared/experiments';
import type { VerificationCounts } from '@guida/shared/schemas/admin';
import { isEngagedSql, isReachableSql, isVerifiedSql } from '@guida/shared/server/verified-lead-sql';

type LeadCountRow = { hero_variant: string; count: string; reachable: number; engaged: number; verified: number };

/**
 * Visitors (analytics sessions that viewed the page) and leads (first requests, repeats
 * left out) per variant of an experiment's page over [from, to): from its start until it
 * was stopped for the experiment's report, a period of the overview for the overview.
 * Of those leads, how many are verified by now (decision 059), for the overview.
 */
export async function experimentCounts(
  db: Knex,
  experiment: HeroExperiment,
  { from, to }: { from: Date; to: Date },
): Promise<(VariantCounts & VerificationCounts)[]> {
  const [visitors, leads] = await Promise.all([
    db('page_views')
      .select('hero_variant')
      .countDistinct({ count: 'session_id' })
      .where('path', experiment.path)
      .whereNotNull('hero_variant')
      .where('timestamp', '>=', from)
      .where('timestamp', '<', to)
      .groupBy('hero_variant') as Promise<{ hero_variant: string; count: string }[]>,
    db('ebook_requests as l')
      .select(
        'hero_variant',
        db.raw(`count(*) FILTER (WHERE ${isReachableSql('l')})::int AS reachable`),
        db.raw(`count(*) FILTER (WHERE ${isEngagedSql('l')})::int AS engaged`),
        db.raw(`count(*) FILTER (WHERE ${isVerifiedSql('l')})::int AS verified`),
      )
      .count({ count: '*' })
      .where('landing_path', experiment.path)
      .whereNotNull('hero_variant')
      .whereNull('repeat_of')
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy('hero_variant') as Promise<LeadCountRow[]>,
  ]);
  const countOf = (rows: { hero_variant: string; count: string }[], id: string) =>
    Number(rows.find((row) => row.hero_variant === id)?.count ?? 0);
  return experiment.variants.map(({ id }) => {
    const verification = leads.find((row) => row.hero_variant === id);
    return {
      variantId: id,
      visitors: countOf(visitors, id),
      leads: countOf(leads, id),
      reachable: verification?.reachable ?? 0,
      engaged: verification?.engaged ?? 0,
      verified: verification?.verified ?? 0,
    };
  });
}
