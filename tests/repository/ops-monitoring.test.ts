/**
 * The Grafana dashboard and the Prometheus alert rules in docs/ops name only metrics the
 * API and the worker register, and the dashboard shows every one of them: renaming a
 * metric without updating them fails here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createApiMetrics } from '../../api/src/metrics';
import { createWorkerMetrics } from '../../worker/src/metrics';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}
interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: { summary?: string };
}

/** The product's own metrics (not Node's process_* and nodejs_*). */
const OWN_METRIC = /^(guida|http)_/;

function registeredMetrics() {
  const worker = createWorkerMetrics();
  // Only registers the gauges: their sources are read when a scrape collects them, never here.
  worker.readAtScrapeTime({} as never);
  const metrics = [...createApiMetrics().registry.getMetricsAsArray(), ...worker.registry.getMetricsAsArray()];
  return new Map(
    metrics.filter((metric) => OWN_METRIC.test(metric.name)).map((metric) => [metric.name, String(metric.type)]),
  );
}

const registered = registeredMetrics();

/** The metrics an expression reads, a histogram's series (_bucket, _sum, _count) by the histogram's name. */
function metricsIn(expr: string) {
  return [...expr.matchAll(/\b(?:guida|http)_[a-z0-9_]+/g)].map(([name]) => {
    const histogram = /^(.*)_(bucket|sum|count)$/.exec(name)?.[1];
    return histogram && registered.get(histogram) === 'histogram' ? histogram : name;
  });
}

describe('docs/ops/grafana-dashboard.json', () => {
  const dashboard = JSON.parse(read('docs/ops/grafana-dashboard.json')) as { title: string; panels: Panel[] };
  const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));

  it('reads only registered metrics, and shows every one', () => {
    expect(exprs.length).toBeGreaterThan(0);
    const shown = new Set(exprs.flatMap(metricsIn));
    expect([...shown].filter((name) => !registered.has(name))).toEqual([]);
    expect([...registered.keys()].filter((name) => !shown.has(name))).toEqual([]);
  });

  it('shows the SMS promise of 2 minutes', () => {
    expect(exprs.some((expr) => expr.includes('guida_sms_lead_to_provider_seconds_bucket{le="120"}'))).toBe(true);
  });
});

describe('docs/ops/prometheus-alerts.yml', () => {
  const rules = (parse(read('docs/ops/prometheus-alerts.yml')) as { groups: { name: string; rules: AlertRule[] }[] }).groups.flatMap(
    (group) => group.rules,
  );

  it('is a list of alert rules, each with an expression, a severity and a summary', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^Guida[A-Za-z]+$/);
      expect(rule.expr.trim(), rule.alert).not.toBe('');
      expect(rule.labels?.severity, rule.alert).toMatch(/^(page|ticket)$/);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
    }
  });

  it('reads only registered metrics (or Prometheus’s own up)', () => {
    for (const rule of rules) {
      const unknown = metricsIn(rule.expr).filter((name) => !registered.has(name));
      expect(unknown, rule.alert).toEqual([]);
      expect(metricsIn(rule.expr).length > 0 || /\bup\{/.test(rule.expr), rule.alert).toBe(true);
    }
  });

  it('covers what ops asked to be alerted on', () => {
    const expressions = rules.map((rule) => rule.expr).join('\n');
    expect(expressions).toMatch(/histogram_quantile\(0\.95, sum by \(le\) \(rate\(guida_sms_lead_to_provider_seconds_bucket\[\w+\]\)\)\) > 90/);
    for (const metric of [
      'guida_sms_failed_total',
      'guida_crm_delivery_failures_total',
      'guida_queue_oldest_waiting_job_age_seconds',
      'guida_analytics_dead_letters_total',
      'guida_worker_dependency_up',
    ]) {
      expect(expressions).toContain(metric);
    }
  });
});
