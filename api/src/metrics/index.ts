export { createApiMetrics, type ApiMetrics } from './api-metrics';
export { answerClusterMetricsRequests, shareMetricsWithClusterPrimary } from './cluster-metrics';
export { countLeadOutcome } from './count-lead-outcome';
export { httpMetrics, routeTemplate } from './http-metrics';
export { metricsRouter } from './metrics.routes';
