import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DeliveryStatus } from '@guida/shared/deliveries/delivery-statuses';
import { SMS_LATENCY_BUCKETS } from '@guida/shared/server/metrics-access';
import { queueStats } from '@guida/shared/server/queue-stats';
import { withTimeout } from '@guida/shared/server/with-timeout';
import type { WorkerDeps } from '../queue-declaration';
import { checkDependencies } from './dependency-health';

/** A scrape waits this long for Redis before it answers without the queue and stream figures. */
const SNAPSHOT_TIMEOUT_MS = 2000;
/** Gauges read within this window share one snapshot (prom-client collects them one by one). */
const SNAPSHOT_REUSE_MS = 1000;

type Snapshot = Awaited<ReturnType<typeof queueStats>>;
type Sources = Pick<WorkerDeps, 'db' | 'connection' | 'queues' | 'config' | 'logger'>;

/**
 * What a worker process counts (its own events: counters and histograms, reset when it
 * restarts), and what every scrape reads from Redis and PostgreSQL when it happens
 * (queues, analytics stream, health). The latter are the same in every worker process:
 * dashboards take their max (decision 036).
 */
export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const smsSent = new Counter({
    name: 'guida_sms_sent_total',
    help: 'Guide SMS handed to the provider.',
    registers,
  });
  const smsFailed = new Counter({
    name: 'guida_sms_failed_total',
    help: 'Guide SMS the provider refused or could not take, by reason; final="true" when no retry is left (the link then goes by email).',
    labelNames: ['reason', 'final'] as const,
    registers,
  });
  const leadToProvider = new Histogram({
    name: 'guida_sms_lead_to_provider_seconds',
    help: 'Seconds from a lead being stored to the provider accepting its SMS.',
    buckets: SMS_LATENCY_BUCKETS,
    registers,
  });
  const crmFailures = new Counter({
    name: 'guida_crm_delivery_failures_total',
    help: 'Failed posts to the CRM webhook; final="true" when no retry is left.',
    labelNames: ['final'] as const,
    registers,
  });
  const conversionUploads = new Counter({
    name: 'guida_conversion_uploads_total',
    help: 'Conversions sent to an ad platform (decision 061), by platform, event and outcome: delivered, retrying, failed (no retry left) or skipped (not configured, no consent, lead erased, too old).',
    labelNames: ['platform', 'event', 'outcome'] as const,
    registers,
  });

  return {
    registry,
    smsSent(secondsSinceLead: number) {
      smsSent.inc();
      leadToProvider.observe(secondsSinceLead);
    },
    smsFailed: (reason: string, final: boolean) => smsFailed.inc({ reason, final: String(final) }),
    crmFailed: (final: boolean) => crmFailures.inc({ final: String(final) }),
    conversionUpload: (platform: string, event: string, outcome: DeliveryStatus) =>
      conversionUploads.inc({ platform, event, outcome }),
    /** Adds the gauges read at scrape time from these connections. */
    readAtScrapeTime: (sources: Sources) => registerScrapeTimeGauges(registry, sources),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

function registerScrapeTimeGauges(registry: Registry, sources: Sources) {
  const registers = [registry];
  let cached: { at: number; snapshot: Promise<Snapshot | null> } | null = null;
  /** One Redis round per scrape for all the gauges, bounded in time; null when Redis does not answer. */
  const snapshot = () => {
    if (cached && performance.now() - cached.at < SNAPSHOT_REUSE_MS) return cached.snapshot;
    const reading =
      sources.connection.status === 'ready'
        ? withTimeout(
            queueStats({
              db: sources.db,
              queues: sources.queues,
              redis: sources.connection,
              prefix: sources.config.REDIS_KEY_PREFIX,
              smsRatePerSecond: sources.config.SMS_RATE_PER_SECOND,
            }),
            SNAPSHOT_TIMEOUT_MS,
            'redis',
          ).catch((error: Error) => {
            sources.logger.warn({ err: error.message }, 'metrics: queue figures unavailable');
            return null;
          })
        : Promise.resolve(null);
    cached = { at: performance.now(), snapshot: reading };
    return reading;
  };

  new Gauge({
    name: 'guida_queue_jobs',
    help: 'Jobs per BullMQ queue and state (waiting includes prioritized), read from Redis at scrape time.',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      const stats = await snapshot();
      for (const queue of stats?.queues ?? []) {
        for (const state of ['waiting', 'active', 'delayed', 'failed'] as const) {
          this.set({ queue: queue.name, state }, queue[state]);
        }
      }
    },
  });
  new Gauge({
    name: 'guida_queue_oldest_waiting_job_age_seconds',
    help: 'Age of the oldest job waiting per queue (0 when none waits), read at scrape time.',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      const stats = await snapshot();
      for (const queue of stats?.queues ?? []) this.set({ queue: queue.name }, queue.oldestWaitingSeconds ?? 0);
    },
  });
  new Gauge({
    name: 'guida_analytics_stream_entries',
    help: 'Analytics Redis stream entries: all kept (total), never read (lag), read and not yet stored (pending); read at scrape time.',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      this.reset();
      const stats = await snapshot();
      if (!stats) return;
      this.set({ state: 'total' }, stats.analytics.length);
      this.set({ state: 'lag' }, stats.analytics.lag ?? stats.analytics.length);
      this.set({ state: 'pending' }, stats.analytics.pending);
    },
  });
  new Counter({
    name: 'guida_analytics_dead_letters_total',
    help: 'Analytics events ever set aside as unstorable (the count kept in Redis), read at scrape time.',
    registers,
    async collect() {
      const stats = await snapshot();
      this.reset();
      // Without Redis: no sample rather than a 0 that would look like a reset.
      if (stats) this.inc(stats.analytics.deadLetters.total);
      else this.remove();
    },
  });
  new Gauge({
    name: 'guida_worker_dependency_up',
    help: 'Whether this worker reaches its dependency (1) or not (0), checked at scrape time.',
    labelNames: ['dependency'] as const,
    registers,
    async collect() {
      const health = await checkDependencies(sources);
      for (const [dependency, state] of Object.entries(health.checks)) this.set({ dependency }, state === 'ok' ? 1 : 0);
    },
  });
}
