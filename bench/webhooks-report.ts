import { ceilingRatios, cpuRow, type Row } from './report-rows.js';
import type { WebhooksResult } from './webhooks.js';

/** Webhook events delivered beside the sustained load, their latency, and their cost to it. */
export function webhookRows(section: string, r: WebhooksResult, fastify: number | undefined): Row[] {
  const cost = 1 - r.withEndpoint.triggersPerSecond / r.without.triggersPerSecond;
  const outcome = `${r.received}/${r.expected} events${r.duplicates ? `, ${r.duplicates} duplicates` : ''}`;
  return [
    {
      section,
      metric: 'webhooks: sustained end to end without an endpoint',
      value: r.without.triggersPerSecond,
      unit: 'triggers/s',
      ratios: ceilingRatios(r.without.triggersPerSecond, [['Fastify', fastify]]),
      note: `accept p99 ${r.without.accept.p99Ms} ms`,
    },
    {
      section,
      metric: 'webhooks: sustained end to end with one message.sent endpoint',
      value: r.withEndpoint.triggersPerSecond,
      unit: 'triggers/s',
      ratios: ceilingRatios(r.withEndpoint.triggersPerSecond, [['Fastify', fastify]]),
      note: `accept p99 ${r.withEndpoint.accept.p99Ms} ms`,
    },
    {
      section,
      metric: 'webhooks: cost to end-to-end throughput',
      value: cost * 100,
      unit: '%',
      target: { op: '<=', value: 15 },
    },
    // Where the cost goes: the same CPU per delivered trigger with and without the endpoint (the
    // receiver, a process of its own on the same cores, counted apart).
    ...cpuRow(section, '  CPU without an endpoint', r.without.cpu, { units: r.without.delivered, unit: 'trigger' }),
    ...cpuRow(section, '  CPU with the endpoint', r.withEndpoint.cpu, {
      units: r.withEndpoint.delivered,
      unit: 'trigger',
    }),
    { section, metric: 'webhooks: events delivered', value: r.eventsPerSecond, unit: 'events/s', note: outcome },
    { section, metric: 'webhooks: commit → receiver p50', value: r.latencyP50Ms, unit: 'ms' },
    {
      section,
      metric: 'webhooks: commit → receiver p99',
      value: r.latencyP99Ms,
      unit: 'ms',
      target: { op: '<=', value: 1000 },
    },
    {
      section,
      metric: `webhooks: commit → receiver p50 / p99 at a paced ${r.paced.rate} triggers/s`,
      value: r.paced.latencyP99Ms,
      unit: 'ms',
      note: `p50 ${r.paced.latencyP50Ms ?? '-'} ms; ${r.paced.received}/${r.paced.accepted} events; half the events rate`,
    },
  ];
}
