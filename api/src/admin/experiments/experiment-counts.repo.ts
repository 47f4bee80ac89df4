import type { Knex } from 'knex';
import type { VariantCounts } from '@guida/shared/experiment-stats';
import type { HeroExperiment } from '@guida/shared/experiments';

/**
 * Visitors (analytics sessions that viewed the page) and leads (first requests, repeats
 * left out) per variant of an experiment's page over [from, to): from its start until it
 * was stopped for the experiment's report, a period of the overview for the overview.
 */
export async function experimentCounts(db: Knex, experiment: HeroExperiment, { from, to }: { from: Date; to: Date }): Promise<VariantCounts[]> {
  const [visitors, leads] = await Promise.all([
    db('page_views')
      .select('hero_variant')
      .countDistinct({ count: 'session_id' })
      .where('path', experiment.path)
      .whereNotNull('hero_variant')
      .where('timestamp', '>=', from)
      .where('timestamp', '<', to)
      .groupBy('hero_variant') as Promise<{ hero_variant: string; count: string }[]>,
    db('ebook_requests')
      .select('hero_variant')
      .count({ count: '*' })
      .where('landing_path', experiment.path)
      .whereNotNull('hero_variant')
      .whereNull('repeat_of')
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .groupBy('hero_variant') as Promise<{ hero_variant: string; count: string }[]>,
  ]);
  const countOf = (rows: { hero_variant: string; count: string }[], id: string) =>
    Number(rows.find((row) => row.hero_variant === id)?.count ?? 0);
  return experiment.variants.map(({ id }) => ({ variantId: id, visitors: countOf(visitors, id), leads: countOf(leads, id) }));
}
