import cluster from 'node:cluster';
import { AggregatorRegistry, type PrometheusContentType, type Registry } from 'prom-client';
import { withTimeout } from '@guida/shared/server/with-timeout';

/*
 * With WEB_CONCURRENCY > 1 the API processes share one port, so a scrape reaches any one
 * of them. That process asks the supervisor (the cluster primary) for the metrics; the
 * primary asks every process for its own (prom-client's AggregatorRegistry) and answers
 * with their sum, so every scrape sees the whole machine (decision 036).
 */
const REQUEST = 'guida:metrics-request';
const REPLY = 'guida:metrics-reply';
/** prom-client's primary gives up on a silent process after 5 s; this waits a little longer. */
const REPLY_TIMEOUT_MS = 6000;

interface MetricsReply {
  type: typeof REPLY;
  id: number;
  metrics?: string;
  error?: string;
}

/** In the primary: answers the processes' requests with the metrics of all of them. */
export function answerClusterMetricsRequests() {
  const aggregator = new AggregatorRegistry<PrometheusContentType>();
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== REQUEST || typeof message.id !== 'number') return;
    const id = message.id;
    aggregator.clusterMetrics().then(
      (metrics) => worker.isConnected() && worker.send({ type: REPLY, id, metrics } satisfies MetricsReply),
      (error: Error) => worker.isConnected() && worker.send({ type: REPLY, id, error: error.message } satisfies MetricsReply),
    );
  });
}

/**
 * In an API process: how a scrape reads the metrics. Under a supervisor, from it (and this
 * process's registry is the one it aggregates); alone, straight from the registry.
 */
export function shareMetricsWithClusterPrimary(registry: Registry<PrometheusContentType>): () => Promise<string> {
  if (!cluster.isWorker || !process.send) return () => registry.metrics();
  AggregatorRegistry.setRegistries(registry);
  const pending = new Map<number, (reply: MetricsReply) => void>();
  let nextId = 0;
  process.on('message', (message: Partial<MetricsReply>) => {
    if (message?.type === REPLY && typeof message.id === 'number') pending.get(message.id)?.(message as MetricsReply);
  });
  return async () => {
    const id = nextId++;
    const reply = new Promise<MetricsReply>((resolve) => pending.set(id, resolve));
    try {
      process.send!({ type: REQUEST, id });
      const { metrics, error } = await withTimeout(reply, REPLY_TIMEOUT_MS, 'the api supervisor');
      if (metrics === undefined) throw new Error(`the api supervisor could not collect the metrics: ${error}`);
      return metrics;
    } finally {
      pending.delete(id);
    }
  };
}
