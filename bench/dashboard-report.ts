import type { DashboardResult, LoadSteps } from './dashboard.js';
import type { Row } from './report-rows.js';

/** The n-th percentile of a few samples: the smallest value at least n % of them do not exceed. */
function percentile(values: number[], n: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((n / 100) * sorted.length) - 1)];
}

/** The median of each step, where the first row's time went. */
function stepsNote(steps: LoadSteps[]): string {
  const median = (pick: (one: LoadSteps) => number) => {
    const values = steps.map(pick).filter((value) => !Number.isNaN(value));
    return values.length > 0 ? percentile(values, 50).toFixed(0) : '-';
  };
  return (
    `medians from navigation start: HTML ${median((one) => one.document)}, scripts and styles ` +
    `${median((one) => one.assets)}, session ${median((one) => one.session)}, notifications ` +
    `${median((one) => one.notifications)}, first row ${median((one) => one.firstRow)} ms`
  );
}

export function dashboardRows(section: string, result: DashboardResult): Row[] {
  const row = (when: string, steps: LoadSteps[]): Row[] => {
    const samples = steps.map((one) => one.firstRow);
    return [
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
      {
        section,
        metric: `dashboard Activity, ${when}, where the time went`,
        value: samples.length,
        unit: 'loads',
        note: stepsNote(steps),
      },
    ];
  };
  return [...row('nothing cached', result.cold), ...row('app cached', result.warm)];
}
