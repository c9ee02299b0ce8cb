import type { InsertCeiling, QueueCeiling } from './ceilings.js';
import type { InboxResult, SocketCeiling } from './inbox.js';
import { inboxRows, socketCeilingRows } from './inbox-report.js';
import { noisyRows } from './noisy-report.js';
import type { NoisyResult } from './noisy-neighbour.js';
import { webhookRows } from './webhooks-report.js';
import { costRows } from './cost-report.js';
import type { DashboardResult } from './dashboard.js';
import { dashboardRows } from './dashboard-report.js';
import type { CostResult } from './cost.js';
import { translationRows } from './translations-report.js';
import type { TranslationsResult } from './translations.js';
import { lifecycleRows } from './lifecycle-report.js';
import type { LifecycleResult } from './lifecycle.js';
import type { WebhooksResult } from './webhooks.js';
import { ceilingRatios, cpuRow, type Row, type Target } from './report-rows.js';
import type { LoadResult } from './load.js';
import type { AcceptResult, DeliveryResult, FeedResult } from './scenarios.js';
import type { ShortScenarioResult } from './short-scenario.js';
import { shortRows, sustainedRows, type SustainedResults } from './sustained-report.js';

export interface PhaseResults {
  sustained?: SustainedResults;
  accept?: AcceptResult;
  fanOut?: DeliveryResult;
  singles?: DeliveryResult;
  feed?: FeedResult;
  inbox?: InboxResult;
  noisy?: NoisyResult;
  webhooks?: WebhooksResult;
  translations?: TranslationsResult;
  lifecycle?: LifecycleResult;
  short?: ShortScenarioResult;
  cost?: CostResult;
  dashboard?: DashboardResult;
}

export interface Ceilings {
  fastify?: LoadResult;
  bullmqRedis?: QueueCeiling;
  bullmqPostgres?: QueueCeiling;
  postgresInsert?: InsertCeiling;
  socketIo?: SocketCeiling;
  fastifyInboxList?: LoadResult;
}

const RSS_TARGET: Target = { op: '<=', value: 350 };

/**
 * The result table, led by the sustained end-to-end rows (what a user gets). Targets are the
 * issue's and apply to the Redis deployment only.
 */
export function buildRows(ceilings: Ceilings, redis: PhaseResults, pgQueue: PhaseResults): Row[] {
  const fastify = ceilings.fastify?.requestsPerSecond;
  const insert = ceilings.postgresInsert?.rowsPerSecond;
  const rows: Row[] = [
    ...sustainedRows('redis', redis.sustained, { fastify, queue: ceilings.bullmqRedis }, true),
    ...sustainedRows('pg-queue', pgQueue.sustained, { fastify, queue: ceilings.bullmqPostgres }, false),
    ...shortRows('redis', redis.short, fastify),
  ];
  if (ceilings.fastify)
    rows.push({
      section: 'ceiling',
      metric: 'bare Fastify POST',
      value: fastify,
      unit: 'req/s',
      note: `p99 ${ceilings.fastify.p99Ms} ms`,
    });
  for (const queue of [ceilings.bullmqRedis, ceilings.bullmqPostgres]) {
    if (!queue) continue;
    const note = queue.drained ? `${queue.jobs} jobs` : `${queue.jobs} jobs, NOT drained before the timeout`;
    rows.push({
      section: 'ceiling',
      metric: `BullMQ ${queue.backend} addBulk`,
      value: queue.addJobsPerSecond,
      unit: 'jobs/s',
      note,
    });
    rows.push({
      section: 'ceiling',
      metric: `BullMQ ${queue.backend} drain`,
      value: queue.drainJobsPerSecond,
      unit: 'jobs/s',
      note: 'no-op processor, concurrency 50',
    });
    rows.push({
      section: 'ceiling',
      metric: `BullMQ ${queue.backend} addBulk + drain`,
      value: queue.jobsPerSecond,
      unit: 'jobs/s',
    });
  }
  if (ceilings.postgresInsert) {
    const c = ceilings.postgresInsert;
    rows.push({
      section: 'ceiling',
      metric: 'PostgreSQL multi-row insert',
      value: insert,
      unit: 'rows/s',
      note: `messages copy, ${c.rowsPerStatement} rows/stmt, ${c.clients} clients`,
    });
  }

  rows.push(...socketCeilingRows(ceilings));

  /** The separate measurements behind a median, when there were several. */
  const runsNote = (r: LoadResult) =>
    r.runs
      ? `medians of ${r.runs.length} runs: ${r.runs.map((run) => `${run.requestsPerSecond.toFixed(0)} req/s p99 ${run.p99Ms}`).join(', ')}`
      : undefined;

  const phase = (section: string, results: PhaseResults, queue: QueueCeiling | undefined, withTargets: boolean) => {
    const t = (target: Target) => (withTargets ? target : undefined);
    const { accept, fanOut, singles, feed } = results;
    if (accept) {
      const s = accept.single;
      const errors = s.non2xx + s.errors;
      rows.push({
        section,
        metric: 'accept only (fan-out queue paused)',
        value: s.requestsPerSecond,
        unit: 'req/s',
        target: t({ op: '>=', value: 5000 }),
        ratios: ceilingRatios(s.requestsPerSecond, [['Fastify', fastify]]),
      });
      rows.push({ section, metric: 'accept only p50', value: s.p50Ms, unit: 'ms' });
      rows.push({
        section,
        metric: 'accept only p99',
        value: s.p99Ms,
        unit: 'ms',
        target: t({ op: '<=', value: 30 }),
        note: runsNote(s),
      });
      rows.push({
        section,
        metric: 'accept only non-2xx + errors',
        value: errors,
        unit: 'count',
        target: t({ op: '<=', value: 0 }),
        note: s.firstError,
      });
      const b = accept.bulk;
      rows.push({
        section,
        metric: `bulk accept only (${b.eventsPerRequest}/request, queue paused)`,
        value: b.eventsPerSecond,
        unit: 'events/s',
        target: t({ op: '>=', value: 20_000 }),
        ratios: ceilingRatios(b.eventsPerSecond, [
          ['PG insert', insert],
          ['BullMQ addBulk', queue?.addJobsPerSecond],
        ]),
        note: [
          `p99 ${b.p99Ms} ms, non-2xx ${b.non2xx + b.errors}${b.firstError ? `: ${b.firstError}` : ''}`,
          runsNote(b),
        ]
          .filter(Boolean)
          .join('; '),
      });
      rows.push(...rssRows(section, 'during accept only', accept.rss, withTargets));
    }
    for (const [name, delivery] of [
      ['topic fan-out', fanOut],
      ['single triggers', singles],
    ] as const) {
      if (!delivery) continue;
      const incomplete = delivery.complete
        ? ''
        : `INCOMPLETE ${delivery.delivered}/${delivery.expected}, rest discarded; `;
      rows.push({
        section,
        metric: `${name} deliveries`,
        value: delivery.deliveriesPerSecond,
        unit: 'msg/s',
        target: name === 'topic fan-out' ? t({ op: '>=', value: 5000 }) : undefined,
        ratios: ceilingRatios(delivery.deliveriesPerSecond, [
          ['BullMQ drain', queue?.drainJobsPerSecond],
          ['PG insert', insert],
        ]),
        note: `${incomplete}${delivery.expected} recipients`,
      });
      rows.push({
        section,
        metric: `${name} time to all delivered`,
        value: delivery.seconds,
        unit: 's',
        target: name === 'topic fan-out' && delivery.expected >= 100_000 ? t({ op: '<=', value: 20 }) : undefined,
        note: [
          delivery.firstMessageSeconds !== undefined
            ? `first message ${delivery.firstMessageSeconds.toFixed(2)} s`
            : 'no message',
          delivery.sendSeconds !== undefined ? `sending took ${delivery.sendSeconds.toFixed(2)} s` : undefined,
          `warm-up ${delivery.warmUpSeconds.toFixed(2)} s`,
        ]
          .filter(Boolean)
          .join(', '),
      });
      rows.push(...rssRows(section, `during ${name}`, delivery.rss, withTargets));
      rows.push(
        ...cpuRow(section, `CPU during ${name}`, delivery.cpu, { units: delivery.delivered, unit: 'delivery' }),
      );
    }
    if (feed) {
      for (const [name, r] of [
        ['page 0', feed.page0],
        ['page 50', feed.page50],
        ['by subscriberIds', feed.bySubscriber],
      ] as const) {
        rows.push({ section, metric: `feed ${name} p50`, value: r.p50Ms, unit: 'ms' });
        rows.push({
          section,
          metric: `feed ${name} p99`,
          value: r.p99Ms,
          unit: 'ms',
          target: t({ op: '<=', value: 25 }),
          ratios: ceilingRatios(r.requestsPerSecond, [['Fastify (req/s)', fastify]]),
          note: [
            `${r.requestsPerSecond.toFixed(0)} req/s, non-2xx ${r.non2xx + r.errors}, ${feed.seededRows} seeded`,
            runsNote(r),
          ]
            .filter(Boolean)
            .join('; '),
        });
      }
    }
  };
  phase('redis', redis, ceilings.bullmqRedis, true);
  if (redis.inbox) rows.push(...inboxRows('redis', redis.inbox, ceilings));
  if (redis.noisy) rows.push(...noisyRows('redis', redis.noisy));
  if (redis.webhooks) rows.push(...webhookRows('redis', redis.webhooks, fastify));
  if (redis.translations) rows.push(...translationRows('redis', redis.translations, fastify));
  if (redis.lifecycle) rows.push(...lifecycleRows('redis, 60 days kept', redis.lifecycle, fastify));
  if (redis.cost) rows.push(...costRows('redis', redis.cost));
  if (redis.dashboard) rows.push(...dashboardRows('redis', redis.dashboard));
  phase('pg-queue', pgQueue, ceilings.bullmqPostgres, false);
  if (pgQueue.cost) rows.push(...costRows('pg-queue', pgQueue.cost));
  return rows;
}

function rssRows(section: string, during: string, rss: AcceptResult['rss'], withTargets: boolean): Row[] {
  const note = rss.sincePhaseStart ? undefined : 'peak since process start';
  return [
    {
      section,
      metric: `api peak RSS ${during}`,
      value: rss.apiMb,
      unit: 'MB',
      target: withTargets ? RSS_TARGET : undefined,
      note,
    },
    {
      section,
      metric: `worker peak RSS ${during}`,
      value: rss.workerMb,
      unit: 'MB',
      target: withTargets ? RSS_TARGET : undefined,
      note,
    },
  ];
}

function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '-';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(2);
}

export function verdict(row: Row): string {
  if (!row.target || row.value === undefined) return '';
  const ok = row.target.op === '>=' ? row.value >= row.target.value : row.value <= row.target.value;
  return `${row.target.op === '>=' ? '≥' : '≤'} ${formatNumber(row.target.value)} ${ok ? 'ok' : 'MISS'}`;
}

/** A plain-text table for the terminal. */
export function formatTable(rows: Row[], quick: boolean): string {
  const header = [
    'section',
    'metric',
    'value',
    'unit',
    quick ? 'target (full sizes only)' : 'target',
    'ratio to ceiling',
    'note',
  ];
  const lines = rows.map((row) => [
    row.section,
    row.metric,
    formatNumber(row.value),
    row.unit,
    verdict(row),
    (row.ratios ?? []).map((r) => `${r.value === undefined ? '-' : r.value.toFixed(3)} of ${r.ceiling}`).join('; '),
    (row.note ?? '').replace(/\s+/g, ' ').slice(0, 120),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [render(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(render)].join('\n');
}
