import { ceilingRatios, type Row } from './report-rows.js';
import type { TranslationsResult } from './translations.js';

/** End-to-end rate with and without `{{t.key}}` rendering, from the same deployment. */
export function translationRows(section: string, r: TranslationsResult, fastify: number | undefined): Row[] {
  const runs: [string, TranslationsResult['without']][] = [
    ['translations: sustained end to end, plain workflow', r.without],
    ['translations: sustained end to end, {{t.key}} workflow', r.withTranslations],
    ['translations: sustained end to end, plain workflow again', r.withoutAgain],
  ];
  const plain = (r.without.triggersPerSecond + r.withoutAgain.triggersPerSecond) / 2;
  return [
    ...runs.map(([metric, run]) => ({
      section,
      metric,
      value: run.triggersPerSecond,
      unit: 'triggers/s',
      ratios: ceilingRatios(run.triggersPerSecond, [['Fastify', fastify]]),
      note: `accept p99 ${run.accept.p99Ms} ms${run.complete ? '' : ', incomplete'}`,
    })),
    {
      section,
      metric: 'translations: difference in end-to-end throughput (to the mean of the plain runs)',
      value: Math.abs(1 - r.withTranslations.triggersPerSecond / plain) * 100,
      unit: '%',
      target: { op: '<=', value: 5 },
    },
  ];
}
