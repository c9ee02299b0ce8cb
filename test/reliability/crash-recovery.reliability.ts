import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '../support/wait.js';
import { Deployment } from './support/deployment.js';
import { PrivateRedis } from './support/private-redis.js';

const RECIPIENTS = Number(process.env.RELIABILITY_RECIPIENTS ?? 10_000);
const DELIVERY_TIMEOUT_MS = Number(process.env.RELIABILITY_DELIVERY_TIMEOUT_MS ?? 240_000);
/** The failure strikes once a tenth of the recipients have their message. */
const MID_FAN_OUT = Math.ceil(RECIPIENTS / 10);

/**
 * Scenarios 1 and 2: a fan-out interrupted by a worker crash, then by the loss of the queue. The
 * deployment runs on a Redis of its own, which scenario 2 kills and starts again empty.
 */
describe(`crash recovery of a ${RECIPIENTS}-recipient fan-out (real processes)`, () => {
  let redis: PrivateRedis;
  let deployment: Deployment;
  let seeded: { topicKey: string; workflow: string };

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    deployment = await Deployment.start({ REDIS_URL: redis.url });
    seeded = await deployment.seedTopic(RECIPIENTS);
  });
  afterAll(async () => {
    await deployment?.stop();
    await redis?.stop();
  });

  const trigger = async (transactionId: string) => {
    const res = await deployment.call('POST', '/v1/events/trigger', {
      name: seeded.workflow,
      to: [{ type: 'Topic', topicKey: seeded.topicKey }],
      transactionId,
      payload: {},
    });
    expect(res.status).toBe(201);
  };

  const expectExactlyOnce = async (transactionId: string, started: number) => {
    await waitFor(async () => (await deployment.messages(transactionId)) >= RECIPIENTS, {
      timeoutMs: DELIVERY_TIMEOUT_MS,
      intervalMs: 500,
      description: `${RECIPIENTS} messages of ${transactionId}`,
    }).catch(async (error: Error) => {
      throw new Error(`${error.message}; state: ${JSON.stringify(await deployment.state(transactionId))}`);
    });
    const seconds = (Date.now() - started) / 1000;
    await waitFor(async () => (await deployment.leftovers(transactionId)).openJobs === 0, {
      timeoutMs: 60_000,
      intervalMs: 500,
      description: 'jobs to finish',
    });
    const leftovers = await deployment.leftovers(transactionId);
    expect({ ...leftovers, messages: await deployment.messages(transactionId) }).toEqual({
      duplicated: 0,
      distinct: RECIPIENTS,
      openJobs: 0,
      openEvents: 0,
      messages: RECIPIENTS,
    });
    return seconds;
  };

  it('kill -9 of the worker mid fan-out: after a restart every recipient has exactly one in-app message', async () => {
    const transactionId = 'worker-crash';
    const started = Date.now();
    await trigger(transactionId);
    await waitFor(async () => (await deployment.messages(transactionId)) >= MID_FAN_OUT, {
      timeoutMs: 120_000,
      intervalMs: 50,
      description: 'a tenth of the messages',
    });
    const before = await deployment.messages(transactionId);
    deployment.worker.child.kill('SIGKILL');
    await deployment.worker.waitForExit();
    expect(before).toBeLessThan(RECIPIENTS);
    await deployment.startWorker();
    const seconds = await expectExactlyOnce(transactionId, started);
    console.log(
      `worker crash: killed at ${before}/${RECIPIENTS} messages; all delivered exactly once after ${seconds.toFixed(1)} s`,
    );
  });

  it('Redis killed mid fan-out and restarted empty: the recovery sweeper completes it, nothing lost or duplicated', async () => {
    const transactionId = 'queue-loss';
    const started = Date.now();
    await trigger(transactionId);
    await waitFor(async () => (await deployment.messages(transactionId)) >= MID_FAN_OUT, {
      timeoutMs: 120_000,
      intervalMs: 50,
      description: 'a tenth of the messages',
    });
    const { keys: keysBefore } = await redis.inspect('set');
    await redis.kill();
    const before = await deployment.messages(transactionId);
    // Down long enough for both processes to notice (failed commands, reconnect attempts).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await redis.restart();
    const { keys: keysAfter, marker } = await redis.inspect();
    expect(before).toBeLessThan(RECIPIENTS);
    expect(marker).toBe(false);
    const seconds = await expectExactlyOnce(transactionId, started);
    expect(deployment.api.child.exitCode).toBeNull();
    expect(deployment.worker.child.exitCode).toBeNull();
    console.log(
      `queue loss: redis-server killed at ${before}/${RECIPIENTS} messages (${keysBefore} keys; ${keysAfter} right after the restart, written by the reconnected service); ` +
        `all delivered exactly once after ${seconds.toFixed(1)} s`,
    );
  });
});
