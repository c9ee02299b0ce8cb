import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Deployment } from './support/deployment.js';
import { answered, describeLoad, drive, percentile } from './support/load.js';
import { PrivateRedis } from './support/private-redis.js';

const MEASURE_SECONDS = 5;
const OVERLOAD_SECONDS = Number(process.env.RELIABILITY_OVERLOAD_SECONDS ?? 30);
/**
 * More clients than the api admits at once (MAX_IN_FLIGHT_REQUESTS, 256), so twice the measured rate
 * can be offered while admitted requests wait. Not many more: the load generator shares the two
 * cores, and each extra connection takes CPU from the api it measures.
 */
const OVERLOAD_CONNECTIONS = 300;
/**
 * A rejection (429/503) must be fast: it is what lets a client back off instead of queueing. The api
 * decides in well under a millisecond (its own histogram, mean < 5 ms asserted); what the client
 * sees adds the time the process waits for a CPU, which on this shared 2-core machine (load
 * generator, PostgreSQL, Redis and other jobs compete) ranged from p99 80 ms when otherwise idle to
 * p50 150 ms at a load average of 11. Asserted as seen by the client: p50 < 250 ms, p99 < 1 s.
 */
const REJECTION_P50_MS = 250;
const REJECTION_P99_MS = 1_000;
const REJECTION_SERVER_MEAN_MS = 5;
/**
 * Plateau: the highest RSS of the last third of the run at most this much above the middle third's.
 * The api runs with a 256 MB old generation (API_HEAP_OPTIONS): with the default limit V8 lets garbage
 * pile up to several times the live heap before a full collection, so RSS was still climbing through
 * the middle third of a 30 s run (267 -> 347 MB seen) and flat only after ~40 s. Bounded, it stays
 * within a few MB of its start (182 -> 186 MB at ~8,000 2xx/s); a leak grows past the tolerance or
 * ends the process out of memory, and either fails the test.
 */
const RSS_GROWTH_TOLERANCE = 0.25;
const API_HEAP_OPTIONS = '--max-old-space-size=256';

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? 0) * 1024;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Count and total seconds of 429/503 answers in the api's own request histogram (/metrics). */
async function serverSideRejections(port: number): Promise<{ count: number; seconds: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const total = { count: 0, seconds: 0 };
  for (const line of text.split('\n')) {
    const match = line.match(/^http_request_duration_seconds_(sum|count)\{[^}]*status_code="(429|503)"[^}]*\} (\S+)$/);
    if (match) total[match[1] === 'sum' ? 'seconds' : 'count'] += Number(match[3]);
  }
  return total;
}

/**
 * Scenario 4: the api process alone (the fan-out backlog waits in a Redis of the test's own) is
 * driven at twice the trigger rate it was just measured to sustain.
 */
describe('overload: twice the measured maximum trigger rate', () => {
  let redis: PrivateRedis;
  let deployment: Deployment;
  let target: { url: string; headers: Record<string, string>; body: string };

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    deployment = await Deployment.start({ REDIS_URL: redis.url, NODE_OPTIONS: API_HEAP_OPTIONS }, { worker: false });
    const { workflow } = await deployment.seedTopic(1);
    target = {
      url: `http://127.0.0.1:${deployment.api.port}/v1/events/trigger`,
      headers: { authorization: `ApiKey ${deployment.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: workflow, to: 'r-0', payload: { text: 'overload' } }),
    };
  });
  afterAll(async () => {
    await deployment?.stop();
    await redis?.stop();
  });

  it(`${OVERLOAD_SECONDS} s at twice the maximum: no crash, RSS plateaus, every answer a 2xx or a fast 429/503`, async () => {
    // Warm-up, then the sustainable rate with a modest number of connections.
    await drive({ ...target, connections: 50, seconds: 2 });
    const measured = await drive({ ...target, connections: 50, seconds: MEASURE_SECONDS });
    const maxRate = answered(measured, (status) => status < 300).length / measured.seconds;
    expect(maxRate).toBeGreaterThan(100);

    const rejectionsBefore = await serverSideRejections(deployment.api.port);
    const pid = deployment.api.child.pid!;
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(rssBytes(pid)), 500);
    const overload = await drive({
      ...target,
      connections: OVERLOAD_CONNECTIONS,
      seconds: OVERLOAD_SECONDS,
      overallRate: Math.round(2 * maxRate),
    }).finally(() => clearInterval(sampler));

    const third = Math.floor(rss.length / 3);
    const middlePeak = Math.max(...rss.slice(third, 2 * third));
    const lastPeak = Math.max(...rss.slice(2 * third));
    const rejections = answered(overload, (status) => status === 429 || status === 503);
    const successes = answered(overload, (status) => status < 300);
    const unexpected = [...overload.byStatus.keys()].filter(
      (status) => status >= 300 && status !== 429 && status !== 503,
    );
    const sent = answered(overload, () => true).length / overload.seconds;
    const rejectionsAfter = await serverSideRejections(deployment.api.port);
    const serverRejections = rejectionsAfter.count - rejectionsBefore.count;
    const serverMeanMs =
      serverRejections > 0 ? ((rejectionsAfter.seconds - rejectionsBefore.seconds) * 1000) / serverRejections : 0;
    console.log(
      `overload: measured ${maxRate.toFixed(0)} triggers/s (50 connections); asked for ${Math.round(2 * maxRate)}/s over ${OVERLOAD_CONNECTIONS} connections ` +
        `for ${OVERLOAD_SECONDS} s, sent ${sent.toFixed(0)}/s (${(sent / maxRate).toFixed(1)}×) → ${(successes.length / overload.seconds).toFixed(0)} 2xx/s; ${describeLoad(overload)}; ` +
        `api RSS ${mb(rss[0])} → peak ${mb(middlePeak)} MB (middle third) / ${mb(lastPeak)} MB (last third); ` +
        `rejections inside the api: mean ${serverMeanMs.toFixed(2)} ms`,
    );

    expect(deployment.api.child.exitCode).toBeNull();
    expect((await fetch(`http://127.0.0.1:${deployment.api.port}/health`)).status).toBe(200);
    expect(unexpected).toEqual([]);
    expect({ errors: overload.errors, timeouts: overload.timeouts }).toEqual({ errors: 0, timeouts: 0 });
    expect(percentile(rejections, 50)).toBeLessThan(REJECTION_P50_MS);
    expect(percentile(rejections, 99)).toBeLessThan(REJECTION_P99_MS);
    expect(serverMeanMs).toBeLessThan(REJECTION_SERVER_MEAN_MS);
    expect(lastPeak).toBeLessThanOrEqual(middlePeak * (1 + RSS_GROWTH_TOLERANCE));
  });
});
