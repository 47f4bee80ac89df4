import type { Knex } from 'knex';
import type { VariantCounts } from '@guida/shared/experiment-stats';
import type { HeroExperiment } from '@guida/shared/experiments';

/**
 * Visitors (analytics sessions that viewed the page) and leads (first requests, repeats
 * left out) per variant of an experiment's page, from its start until it was stopped.
 */
export async function experimentCounts(db: Knex, experiment: HeroExperiment, until: Date | null): Promise<VariantCounts[]> {
  const end = until ?? new Date('9999-12-31T00:00:00Z');
  const [visitors, leads] = await Promise.all([
    db('page_views')
      .select('hero_variant')
      .countDistinct({ count: 'session_id' })
      .where('path', experiment.path)
      .whereNotNull('hero_variant')
      .where('timestamp', '>=', experiment.startedAt)
      .where('timestamp', '<', end)
      .groupBy('hero_variant') as Promise<{ hero_variant: string; count: string }[]>,
    db('ebook_requests')
      .select('hero_variant')
      .count({ count: '*' })
      .where('landing_path', experiment.path)
      .whereNotNull('hero_variant')
      .whereNull('repeat_of')
      .where('created_at', '>=', experiment.startedAt)
      .where('created_at', '<', end)
      .groupBy('hero_variant') as Promise<{ hero_variant: string; count: string }[]>,
  ]);
  const countOf = (rows: { hero_variant: string; count: string }[], id: string) =>
    Number(rows.find((row) => row.hero_variant === id)?.count ?? 0);
  return experiment.variants.map(({ id }) => ({ variantId: id, visitors: countOf(visitors, id), leads: countOf(leads, id) }));
}
