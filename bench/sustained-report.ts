import type { QueueCeiling } from './ceilings.js';
import type { LoadResult } from './load.js';
import { ceilingRatios, cpuRow, type Row, type Target } from './report-rows.js';
import type { SoakResult } from './soak.js';
import type { ShortScenarioResult } from './short-scenario.js';
import type { FeedUnderLoadResult, SustainedRun } from './sustained.js';

export interface SustainedResults {
  existing?: SustainedRun;
  newSubscribers?: SustainedRun;
  feed?: FeedUnderLoadResult;
  soak?: SoakResult;
}

interface Bounds {
  /** Bare Fastify req/s. */
  fastify?: number;
  queue?: QueueCeiling;
}

const RSS_TARGET: Target = { op: '<=', value: 300 };
const FEED_P99_TARGET: Target = { op: '<=', value: 25 };

function runRows(
  section: string,
  run: SustainedRun,
  bounds: Bounds,
  target: (t: Target) => Target | undefined,
  who = run.recipients === 'existing' ? 'existing subscribers' : 'new subscriber per trigger',
) {
  const a = run.accept;
  const outcome = run.complete
    ? `all ${a.ok2xx} accepted delivered`
    : `INCOMPLETE ${run.delivered}/${a.ok2xx} delivered, rest discarded`;
  const rssNote = run.rss.sincePhaseStart ? undefined : 'peak since process start';
  const rows: Row[] = [
    {
      section,
      metric: `sustained end to end, ${who}`,
      value: run.triggersPerSecond,
      unit: 'triggers/s',
      target: target({ op: '>=', value: run.recipients === 'existing' ? 3000 : 2000 }),
      ratios: ceilingRatios(run.triggersPerSecond, [['BullMQ drain', bounds.queue?.drainJobsPerSecond]]),
      note: `${outcome}; ${run.endToEndSeconds.toFixed(1)} s first send → last message, sending ${run.sendSeconds.toFixed(1)} s`,
    },
    {
      section,
      metric: `  accept rate during it (${who})`,
      value: a.requestsPerSecond,
      unit: 'req/s',
      ratios: ceilingRatios(a.requestsPerSecond, [['Fastify', bounds.fastify]]),
      note: `non-2xx ${a.non2xx + a.errors}${a.firstError ? `: ${a.firstError}` : ''}`,
    },
    { section, metric: `  accept p50 during it (${who})`, value: a.p50Ms, unit: 'ms' },
    {
      section,
      metric: `  accept p99 during it (${who})`,
      value: a.p99Ms,
      unit: 'ms',
      target: target({ op: '<=', value: 50 }),
    },
    {
      section,
      metric: `  delivery lag after sending stopped (${who})`,
      value: run.lagSeconds,
      unit: 's',
      note: `warm-up trigger ${run.warmUpSeconds.toFixed(2)} s`,
    },
    {
      section,
      metric: `  api peak RSS (${who})`,
      value: run.rss.apiMb,
      unit: 'MB',
      target: target(RSS_TARGET),
      note: rssNote,
    },
    {
      section,
      metric: `  worker peak RSS (${who})`,
      value: run.rss.workerMb,
      unit: 'MB',
      target: target(RSS_TARGET),
      note: rssNote,
    },
    ...cpuRow(section, `  CPU during it (${who})`, run.cpu, {
      units: Math.min(run.delivered, a.ok2xx),
      unit: 'trigger',
    }),
  ];
  return rows;
}

function feedRows(
  section: string,
  feed: FeedUnderLoadResult,
  bounds: Bounds,
  target: (t: Target) => Target | undefined,
) {
  const s = feed.sender;
  const loadNote = (r: LoadResult) =>
    `${r.requestsPerSecond.toFixed(0)} req/s, non-2xx ${r.non2xx + r.errors}, ${feed.seededRows} seeded`;
  const feedRow = (when: string, r: LoadResult, note: string): Row[] => [
    { section, metric: `  feed page 0 p50 ${when}`, value: r.p50Ms, unit: 'ms' },
    {
      section,
      metric: `  feed page 0 p99 ${when}`,
      value: r.p99Ms,
      unit: 'ms',
      target: target(FEED_P99_TARGET),
      ratios: ceilingRatios(r.requestsPerSecond, [['Fastify (req/s)', bounds.fastify]]),
      note,
    },
  ];
  const delivered = feed.complete
    ? `delivered ${feed.lagSeconds.toFixed(1)} s after the stop`
    : `INCOMPLETE ${feed.delivered}/${s.ok2xx} delivered, rest discarded`;
  return [
    ...feedRow('idle', feed.idle, loadNote(feed.idle)),
    ...feedRow(`under ${s.rate}/s triggers`, feed.underLoad, loadNote(feed.underLoad)),
    ...cpuRow(section, `  CPU during the feed load under triggers`, feed.cpuUnderLoad),
    {
      section,
      metric: `  paced triggers accepted during the feed load`,
      value: s.acceptedPerSecond,
      unit: 'triggers/s',
      note: [
        `of ${s.rate}/s over ${s.seconds.toFixed(1)} s`,
        `from scheduled send p50 ${s.p50Ms ?? '-'} p99 ${s.p99Ms ?? '-'} ms`,
        s.skipped ? `skipped ${s.skipped}` : '',
        s.non2xx + s.errors ? `non-2xx ${s.non2xx + s.errors}` : '',
        delivered,
        s.firstError,
      ]
        .filter(Boolean)
        .join('; '),
    },
  ];
}

/** The headline: what a user gets end to end. Targets apply to the Redis deployment only. */
export function sustainedRows(
  section: string,
  results: SustainedResults | undefined,
  bounds: Bounds,
  withTargets: boolean,
): Row[] {
  if (!results) return [];
  const target = (t: Target) => (withTargets ? t : undefined);
  const rows: Row[] = [];
  for (const run of [results.existing, results.newSubscribers])
    if (run) rows.push(...runRows(section, run, bounds, target));
  if (results.feed) rows.push(...feedRows(section, results.feed, bounds, target));
  if (results.soak) rows.push(...soakRows(section, results.soak, bounds, target));
  return rows;
}

function soakRows(section: string, soak: SoakResult, bounds: Bounds, target: (t: Target) => Target | undefined) {
  const who = `existing subscribers, ${soak.run.sendSeconds.toFixed(0)} s`;
  const rates = soak.intervals.map((i) => i.deliveredPerSecond);
  const v = soak.vacuumed;
  return [
    ...runRows(section, soak.run, bounds, target, who),
    {
      section,
      metric: `  delivered per 30 s interval (${who})`,
      value: rates.length > 0 ? Math.min(...rates) : undefined,
      unit: 'msgs/s min',
      note: `${soak.intervals.map((i) => `${i.endSecond} s: ${i.deliveredPerSecond.toFixed(0)}`).join(', ')}`,
    },
    {
      section,
      metric: `  database size (${who})`,
      value: soak.databaseMbAfter,
      unit: 'MB',
      note: `${soak.databaseMbBefore.toFixed(0)} MB before; during it the bench's autovacuum ran ${v.vacuums} vacuums and ${v.analyzes} analyzes (${v.busySeconds.toFixed(1)} s)`,
    },
  ];
}

const SHORT_RATIO_TARGET: Target = { op: '>=', value: 0.12 };

/** The short scenario (subscribers created through the API, 15 s): its rates as shares of bare Fastify. */
export function shortRows(section: string, short: ShortScenarioResult | undefined, fastify: number | undefined): Row[] {
  if (!short) return [];
  const noTarget = () => undefined;
  const rows: Row[] = [
    {
      section,
      metric: `short scenario: ${short.subscribers} subscribers created through the API`,
      value: short.createSeconds,
      unit: 's',
    },
  ];
  for (const run of [short.existing, short.newSubscribers]) {
    const who = `short, ${run.recipients === 'existing' ? 'existing subscribers' : 'new subscriber per trigger'}`;
    rows.push(
      {
        section,
        metric: `short scenario end to end (${who}) ÷ bare Fastify`,
        value: fastify ? run.triggersPerSecond / fastify : undefined,
        unit: 'ratio',
        target: SHORT_RATIO_TARGET,
        note: `${run.triggersPerSecond.toFixed(0)} triggers/s; accept p99 ${run.accept.p99Ms} ms`,
      },
      ...runRows(section, run, { fastify }, noTarget, who),
    );
  }
  return rows;
}
