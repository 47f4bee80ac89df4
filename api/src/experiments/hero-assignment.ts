import { createHmac } from 'node:crypto';
import type { HeroExperiment } from '@guida/shared/experiments';

/**
 * The variant a visitor is shown (decision 041): a keyed hash of their address, browser,
 * the experiment and the day, so the same visitor gets the same variant for the whole
 * visit, visitors spread evenly and at random over the variants, and nothing is set in
 * the browser or stored about them. The key of the day is derived from SESSION_SECRET and
 * the UTC date: without the secret the assignment cannot be predicted, and across days it
 * cannot link a visitor's visits.
 */
export function assignedVariant(
  experiment: HeroExperiment,
  visitor: { ip: string | undefined; userAgent: string | undefined },
  secret: string,
  now: Date,
): string {
  const dayKey = createHmac('sha256', secret).update(`hero-experiment-day:${now.toISOString().slice(0, 10)}`).digest();
  const digest = createHmac('sha256', dayKey)
    .update(`${experiment.id}\n${visitor.ip ?? ''}\n${visitor.userAgent ?? ''}`)
    .digest();
  // 2^32 buckets over two or three variants: the bias of the modulo is below 1e-9.
  return experiment.variants[digest.readUInt32BE(0) % experiment.variants.length]!.id;
}
