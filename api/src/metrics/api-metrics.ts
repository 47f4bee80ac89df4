import type { Knex } from 'knex';
import { AggregatorRegistry, Counter, Gauge, Histogram, collectDefaultMetrics, type PrometheusContentType } from 'prom-client';
import { SMS_DELIVERED } from '@guida/shared/deliveries/delivery-statuses';
import { SMS_LATENCY_BUCKETS } from '@guida/shared/server/metrics-access';
import { lastWorkerHeartbeat } from '@guida/shared/server/worker-heartbeats';
import { shareMetricsWithClusterPrimary } from './cluster-metrics';

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * What an API process counts. Each process counts its own; with WEB_CONCURRENCY > 1 a
 * scrape reads the sum over the processes of the machine (cluster-metrics.ts, decision 036).
 */
export function createApiMetrics() {
  // An AggregatorRegistry is a plain registry that also answers the cluster primary.
  const registry = new AggregatorRegistry<PrometheusContentType>();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const leadsAccepted = new Counter({
    name: 'guida_leads_accepted_total',
    help: 'Guide requests stored (answered 201, or 303 to a plain form).',
    registers,
  });
  const leadsRefused = new Counter({
    name: 'guida_leads_refused_total',
    help: 'Guide requests refused, by reason (the error code of the answer).',
    labelNames: ['reason'] as const,
    registers,
  });
  const smsReports = new Counter({
    name: 'guida_sms_provider_reports_total',
    help: 'SMS status reports from the provider that moved an SMS on, by the status they set.',
    labelNames: ['status'] as const,
    registers,
  });
  const leadToDelivered = new Histogram({
    name: 'guida_sms_lead_to_delivered_seconds',
    help: 'Seconds from a lead being stored to the provider reporting its SMS delivered.',
    buckets: SMS_LATENCY_BUCKETS,
    registers,
  });

  // Google Ads' scheduled fetches of the conversions file (decision 062).
  const googleAdsFetches = new Counter({
    name: 'guida_google_ads_fetches_total',
    help: 'Requests to the Google Ads conversions URL, by outcome: served, no_credentials, wrong_credentials, insecure (plain HTTP in production).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const googleAdsConversionsServed = new Counter({
    name: 'guida_google_ads_conversions_served_total',
    help: 'Conversions in the files the Google Ads conversions URL served, by event (lead, verified_lead).',
    labelNames: ['event'] as const,
    registers,
  });

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Seconds from a request arriving to its answer sent, by method, route template and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const serverErrors = new Counter({
    name: 'http_server_errors_total',
    help: 'Requests answered with a 5xx, by method and route template.',
    labelNames: ['method', 'route'] as const,
    registers,
  });

  // Read from PostgreSQL at each scrape, so Prometheus can alert on it without reaching a worker.
  let heartbeats: { db: Knex; now: () => Date } | undefined;
  new Gauge({
    name: 'guida_worker_last_heartbeat_age_seconds',
    help: 'Seconds since a worker was last seen running (its heartbeat); +Inf when none ever ran, NaN when PostgreSQL cannot say.',
    // Every API process reads the same row: the machine's answer is one of them, not their sum.
    aggregator: 'max',
    registers,
    async collect() {
      if (!heartbeats) return;
      const { db, now } = heartbeats;
      try {
        const lastSeen = await lastWorkerHeartbeat(db);
        this.set(lastSeen ? Math.max(0, (now().getTime() - lastSeen.getTime()) / 1000) : Number.POSITIVE_INFINITY);
      } catch {
        // PostgreSQL down has alerts of its own; NaN never compares above a threshold.
        this.set(Number.NaN);
      }
    },
  });

  return {
    registry,
    /** Where the heartbeat age is read from at scrape time. */
    readWorkerHeartbeatsFrom(db: Knex, now: () => Date = () => new Date()) {
      heartbeats = { db, now };
    },
    requestFinished(method: string, route: string, status: number, seconds: number) {
      // Unknown methods would make a label per attacker's choice.
      const knownMethod = KNOWN_METHODS.has(method) ? method : 'OTHER';
      requestDuration.observe({ method: knownMethod, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
      if (status >= 500) serverErrors.inc({ method: knownMethod, route });
    },
    /** The text a scrape gets: this process's metrics, or the machine's under a supervisor. */
    read: shareMetricsWithClusterPrimary(registry),
    leadAccepted: () => leadsAccepted.inc(),
    googleAdsFetched: (outcome: 'served' | 'no_credentials' | 'wrong_credentials' | 'insecure') => googleAdsFetches.inc({ outcome }),
    googleAdsConversionsServed: (event: string, count: number) => googleAdsConversionsServed.inc({ event }, count),
    leadRefused: (reason: string) => leadsRefused.inc({ reason }),
    /** A provider report that changed an SMS; `delivered` ones also time the whole path. */
    smsReported(status: string, secondsSinceLead: number) {
      smsReports.inc({ status });
      if (status === SMS_DELIVERED) leadToDelivered.observe(secondsSinceLead);
    },
  };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;
