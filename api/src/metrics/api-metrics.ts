import { AggregatorRegistry, Counter, Histogram, collectDefaultMetrics, type PrometheusContentType } from 'prom-client';
import { SMS_DELIVERED } from '@guida/shared/deliveries/delivery-statuses';
import { SMS_LATENCY_BUCKETS } from '@guida/shared/server/metrics-access';
import { shareMetricsWithClusterPrimary } from './cluster-metrics';

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

  return {
    registry,
    /** The text a scrape gets: this process's metrics, or the machine's under a supervisor. */
    read: shareMetricsWithClusterPrimary(registry),
    leadAccepted: () => leadsAccepted.inc(),
    leadRefused: (reason: string) => leadsRefused.inc({ reason }),
    /** A provider report that changed an SMS; `delivered` ones also time the whole path. */
    smsReported(status: string, secondsSinceLead: number) {
      smsReports.inc({ status });
      if (status === SMS_DELIVERED) leadToDelivered.observe(secondsSinceLead);
    },
  };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;
