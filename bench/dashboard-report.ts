import type { DashboardResult } from './dashboard.js';
import type { Row } from './report-rows.js';

/** The n-th percentile of a few samples: the smallest value at least n % of them do not exceed. */
function percentile(values: number[], n: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((n / 100) * sorted.length) - 1)];
}

export function dashboardRows(section: string, result: DashboardResult): Row[] {
  const row = (when: string, samples: number[]): Row[] => [
    {
      section,
      metric: `dashboard Activity first page shown, ${when}, p50`,
      value: percentile(samples, 50),
      unit: 'ms',
    },
    {
      section,
      metric: `dashboard Activity first page shown, ${when}, p90`,
      value: percentile(samples, 90),
      unit: 'ms',
      target: { op: '<=', value: 500 },
      note: `${samples.length} navigations, max ${Math.max(...samples).toFixed(0)} ms; ${result.seededRows} notifications`,
    },
  ];
  return [...row('nothing cached', result.coldMs), ...row('app cached', result.warmMs)];
}
