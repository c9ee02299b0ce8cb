import type { LoadResult } from './load.js';
import type { LifecycleResult } from './lifecycle.js';
import type { PacedResult } from './paced-load.js';
import { ceilingRatios, type Row } from './report-rows.js';

const mb = (bytes: number) => bytes / 1024 / 1024;

/** The feed and inbox at the lifecycle's size, the maintenance run that drops a day, and the database size. */
export function lifecycleRows(section: string, r: LifecycleResult, fastify: number | undefined): Row[] {
  const seeded = `${r.notifications.toLocaleString('en')} notifications over ${r.days} days`;
  const latency = (metric: string, load: LoadResult, target: number): Row => ({
    section,
    metric,
    value: load.p99Ms,
    unit: 'ms',
    target: { op: '<=', value: target },
    ratios: ceilingRatios(load.requestsPerSecond, [['Fastify (req/s)', fastify]]),
    note: `p50 ${load.p50Ms} ms, ${load.requestsPerSecond.toFixed(0)} req/s, non-2xx ${load.non2xx + load.errors}`,
  });
  const pacedLatency = (metric: string, paced: PacedResult, target: number): Row => ({
    section,
    metric,
    value: paced.p99Ms,
    unit: 'ms',
    target: { op: '<=', value: target },
    note: `p50 ${paced.p50Ms} ms at ${paced.rate} req/s scheduled, ${paced.acceptedPerSecond.toFixed(0)} answered 2xx/s, skipped ${paced.skipped}, non-2xx ${paced.non2xx + paced.errors}${paced.firstError ? `: ${paced.firstError}` : ''}`,
  });
  const sizes = r.sizeBytes;
  return [
    {
      section,
      metric: `lifecycle: seeded ${seeded}`,
      value: (r.notifications * 5) / r.seedSeconds,
      unit: 'rows/s',
      note: `${r.seedSeconds.toFixed(0)} s; 5 rows each (trigger event, notification, job, execution detail, message)`,
    },
    latency('lifecycle: feed page 0 p99, idle', r.feedIdle.page0, 25),
    latency('lifecycle: feed page 50 p99, idle', r.feedIdle.page50, 25),
    latency('lifecycle: feed subscriberIds p99, idle', r.feedIdle.bySubscriber, 25),
    {
      ...latency('lifecycle: feed page 0 p99, under paced triggers', r.feedUnderLoad, 25),
      note: `p50 ${r.feedUnderLoad.p50Ms} ms, ${r.feedUnderLoad.requestsPerSecond.toFixed(0)} req/s; the trigger sender reached ${r.triggerSender.acceptedPerSecond.toFixed(0)}/s (${r.triggerSender.ok2xx} accepted), worker consuming`,
    },
    pacedLatency(
      'lifecycle: feed page 0 p99, under paced triggers, paced at half its closed-loop rate',
      r.paced.feedUnderTriggers,
      25,
    ),
    latency('lifecycle: inbox list p99, idle', r.inboxList, 20),
    pacedLatency('lifecycle: feed page 0 p99, idle, paced at half its closed-loop rate', r.paced.feedPage0, 25),
    pacedLatency('lifecycle: feed page 50 p99, idle, paced at half its closed-loop rate', r.paced.feedPage50, 25),
    pacedLatency(
      'lifecycle: feed subscriberIds p99, idle, paced at half its closed-loop rate',
      r.paced.feedBySubscriber,
      25,
    ),
    pacedLatency('lifecycle: inbox list p99, idle, paced at half its closed-loop rate', r.paced.inboxList, 20),
    {
      section,
      metric: 'lifecycle: maintenance run dropping an expired week partition holding a day of rows',
      value: r.maintenance.durationMs / 1000,
      unit: 's',
      target: { op: '<=', value: 2 },
      note: `removed ${JSON.stringify(r.maintenance.removed)}; ms by phase ${JSON.stringify(r.maintenance.phasesMs)}`,
    },
    {
      section,
      metric: 'lifecycle: trigger accept p99 alone / during the run',
      value: r.maintenance.acceptDuring.p99Ms,
      unit: 'ms',
      note: `alone ${r.maintenance.acceptAlone.p99Ms} ms at ${r.maintenance.acceptAlone.requestsPerSecond.toFixed(0)} req/s; during ${r.maintenance.acceptDuring.requestsPerSecond.toFixed(0)} req/s`,
    },
    {
      section,
      metric: 'lifecycle: database size seeded / with a day past retention / after the run',
      value: mb(sizes.afterRun),
      unit: 'MB',
      note: `${mb(sizes.seeded).toFixed(0)} / ${mb(sizes.withExpiredDay).toFixed(0)} / ${mb(sizes.afterRun).toFixed(0)} MB`,
    },
    {
      section,
      metric: `lifecycle: database size after each of ${sizes.cycles.length} simulated days (a day in, a day out)`,
      value: mb(sizes.cycles.at(-1) ?? 0),
      unit: 'MB',
      note: sizes.cycles.map((size) => mb(size).toFixed(0)).join(', '),
    },
  ];
}
