import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '../support/wait.js';
import { Deployment } from './support/deployment.js';

const RECIPIENTS = Number(process.env.RELIABILITY_RECIPIENTS ?? 10_000);
const DELIVERY_TIMEOUT_MS = Number(process.env.RELIABILITY_DELIVERY_TIMEOUT_MS ?? 240_000);
/** The failure strikes once a tenth of the recipients have their message. */
const MID_FAN_OUT = Math.ceil(RECIPIENTS / 10);

/** Scenarios 1 and 2: a fan-out interrupted by a worker crash, then by the loss of the queue. */
describe(`crash recovery of a ${RECIPIENTS}-recipient fan-out (real processes)`, () => {
  let deployment: Deployment;
  let seeded: { topicKey: string; workflow: string };

  beforeAll(async () => {
    deployment = await Deployment.start();
    seeded = await deployment.seedTopic(RECIPIENTS);
  });
  afterAll(async () => {
    await deployment?.stop();
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
    await waitFor(async () => (await deployment.leftovers(transactionId)).openJobs === 0, { timeoutMs: 60_000, intervalMs: 500, description: 'jobs to finish' });
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
    await waitFor(async () => (await deployment.messages(transactionId)) >= MID_FAN_OUT, { timeoutMs: 120_000, intervalMs: 50, description: 'a tenth of the messages' });
    const before = await deployment.messages(transactionId);
    deployment.worker.child.kill('SIGKILL');
    await deployment.worker.waitForExit();
    expect(before).toBeLessThan(RECIPIENTS);
    await deployment.startWorker();
    const seconds = await expectExactlyOnce(transactionId, started);
    console.log(`worker crash: killed at ${before}/${RECIPIENTS} messages; all delivered exactly once after ${seconds.toFixed(1)} s`);
  });

  it('the queue flushed mid fan-out: the recovery sweeper completes it, nothing lost or duplicated', async () => {
    const transactionId = 'queue-loss';
    const started = Date.now();
    await trigger(transactionId);
    await waitFor(async () => (await deployment.messages(transactionId)) >= MID_FAN_OUT, { timeoutMs: 120_000, intervalMs: 50, description: 'a tenth of the messages' });
    // Redis restarted without persistence, as this deployment sees it: every key of its prefix gone.
    const redis = deployment.redis();
    let removed = 0;
    try {
      for await (const keys of redis.scanStream({ match: `${deployment.prefix}:*`, count: 1000 })) {
        if ((keys as string[]).length) removed += await redis.unlink(...(keys as string[]));
      }
    } finally {
      redis.disconnect();
    }
    const before = await deployment.messages(transactionId);
    expect(removed).toBeGreaterThan(0);
    const seconds = await expectExactlyOnce(transactionId, started);
    console.log(`queue loss: ${removed} Redis keys removed at ${before}/${RECIPIENTS} messages; all delivered exactly once after ${seconds.toFixed(1)} s`);
  });
});
