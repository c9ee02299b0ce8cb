import type { NoisyResult, QuietRun } from './noisy-neighbour.js';
import type { Row } from './report-rows.js';

const WITH_NOISY = "with A's chat calls hanging";

function quietNote(run: QuietRun): string {
  const outcome = run.complete
    ? `all ${run.accepted} accepted delivered`
    : `INCOMPLETE ${run.delivered}/${run.accepted} delivered`;
  return [outcome, `max ${run.maxMs ?? '-'} ms`, run.firstError].filter(Boolean).join('; ');
}

/** The quiet environment B's in_app latency alone and beside A's hanging chat steps; the targets. */
export function noisyRows(section: string, r: NoisyResult): Row[] {
  const ratio = r.alone.p99Ms && r.withNoisy.p99Ms !== undefined ? r.withNoisy.p99Ms / r.alone.p99Ms : undefined;
  const load = `B: ${r.rate} in_app triggers/s for ${r.seconds} s`;
  const ended = Object.entries(r.noisyJobs)
    .map(([status, n]) => `${status} ${n}`)
    .join(', ');
  return [
    { section, metric: 'noisy neighbour: B in_app p50 alone', value: r.alone.p50Ms, unit: 'ms', note: load },
    {
      section,
      metric: 'noisy neighbour: B in_app p99 alone',
      value: r.alone.p99Ms,
      unit: 'ms',
      note: quietNote(r.alone),
    },
    { section, metric: `noisy neighbour: B in_app p50 ${WITH_NOISY}`, value: r.withNoisy.p50Ms, unit: 'ms' },
    {
      section,
      metric: `noisy neighbour: B in_app p99 ${WITH_NOISY}`,
      value: r.withNoisy.p99Ms,
      unit: 'ms',
      target: { op: '<=', value: 1000 },
      note: quietNote(r.withNoisy),
    },
    {
      section,
      metric: 'noisy neighbour: B p99 with A / alone',
      value: ratio,
      unit: '×',
      target: { op: '<=', value: 2 },
    },
    {
      section,
      metric: "noisy neighbour: A's jobs pending when B finished",
      value: r.noisyPendingAfterQuiet,
      unit: 'count',
      note: `A: ${r.noisyAccepted} chat triggers accepted, webhook received ${r.webhookCalls} calls (never answered)`,
    },
    {
      section,
      metric: "noisy neighbour: A's jobs all ended, from A's first trigger",
      value: r.noisyEndSeconds,
      unit: 's',
      note: `${r.noisyEnded ? '' : 'NOT all ended, rest discarded; '}${ended}`,
    },
  ];
}
