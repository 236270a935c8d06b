/**
 * docs/ops/: the Prometheus alert rules and the Grafana dashboard name only metrics the process
 * serves (lib/observability/metrics.ts, api/metrics.ts), the rules cover the alerts docs/deploy.md
 * §Metrics explains, and each rule's runbook is a section there.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { registry } from '../lib/observability/metrics';
import '../api/metrics';

const RulesSchema = z.object({
  groups: z.array(
    z.object({
      name: z.string(),
      rules: z.array(
        z.object({
          alert: z.string(),
          expr: z.string(),
          for: z.string().optional(),
          labels: z.object({ severity: z.enum(['page', 'warn']) }),
          annotations: z.object({ summary: z.string(), runbook: z.string() }),
        }),
      ),
    }),
  ),
});
const DashboardSchema = z.object({
  panels: z.array(z.object({ title: z.string(), targets: z.array(z.object({ expr: z.string() })) })),
});

const rules = RulesSchema.parse(parse(readFileSync('docs/ops/prometheus-rules.yml', 'utf8'))).groups.flatMap(
  (group) => group.rules,
);
const dashboard = DashboardSchema.parse(JSON.parse(readFileSync('docs/ops/grafana-dashboard.json', 'utf8')));
const deployGuide = readFileSync('docs/deploy.md', 'utf8');

/** The metric names an expression reads (ours and Node's all live in these namespaces). */
const metricsIn = (expr: string) =>
  [...expr.matchAll(/\b(?:campus_bus|http|nodejs|process)_[a-z0-9_]+/g)].map(([name]) =>
    name.replace(/_(bucket|count|sum)$/, ''),
  );

describe('the operations files', () => {
  const served = new Set(registry.getMetricsAsArray().map((metric) => metric.name));

  it.each([
    ...rules.map((rule) => [rule.alert, rule.expr]),
    ...dashboard.panels.flatMap((panel) => panel.targets.map((target) => [panel.title, target.expr])),
  ])('%s reads only served metrics', (_name, expr) => {
    const names = metricsIn(expr);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(served, `${name} in ${expr}`).toContain(name);
    // Balanced brackets: a PromQL expression with a stray one never loads.
    for (const [open, close] of ['()', '{}', '[]']) {
      expect(expr.split(open).length, `${open}${close} in ${expr}`).toBe(expr.split(close).length);
    }
  });

  it('alert on a stale feed, the quota by 18:00, the outbox, 5xx over 1 % and readiness', () => {
    expect(rules.map((rule) => rule.alert).sort()).toEqual([
      'CampusBusFeedStale',
      'CampusBusGbisQuotaNearlySpent',
      'CampusBusNotReady',
      'CampusBusOutboxFailing',
      'CampusBusServerErrors',
    ]);
    const expr = (alert: string) => rules.find((rule) => rule.alert === alert)!.expr;
    expect(expr('CampusBusFeedStale')).toContain('campus_bus_in_service_hours');
    expect(rules.find((rule) => rule.alert === 'CampusBusFeedStale')!.for).toBe('10m');
    expect(expr('CampusBusGbisQuotaNearlySpent')).toMatch(/> 0\.9[\s\S]*hour\(\) < 9/);
    expect(expr('CampusBusServerErrors')).toMatch(/status_code=~"5\.\."[\s\S]*> 0\.01/);
  });

  it.each(rules.map((rule) => [rule.alert, rule.annotations.runbook]))(
    '%s has its runbook in docs/deploy.md',
    (_alert, runbook) => {
      const section = /^docs\/deploy\.md §Metrics, "(.+)"$/.exec(runbook)?.[1];
      expect(section, runbook).toBeDefined();
      expect(deployGuide).toContain('## Metrics');
      expect(deployGuide).toContain(`**${section}**`);
    },
  );
});
