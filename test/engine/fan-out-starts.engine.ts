import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Job } from 'bullmq';
import { FanOutService, QUEUE_NAMES, type JobPayloads } from '#event-processing';
import { createWorkflow, inApp, messagesOf } from '../support/engine-fixtures.js';
import { statementsDuring } from '../support/statement-plans.js';
import { startEngine, type Engine } from './support/engine-harness.js';

/**
 * Under load the api's batches of triggers reach the worker as many small fan-out entries; those an
 * environment has in progress at once start from one read of their events and of the subscribers
 * they name, and each still fans out only its own events.
 */
describe('workflow engine: fan-out entries started together', () => {
  let e: Engine;
  beforeAll(async () => {
    e = await startEngine();
  });
  afterAll(async () => {
    await e?.close();
  });

  it('concurrent entries read their events in one statement and each delivers its own', async () => {
    const workflow = await createWorkflow(e, { steps: [inApp('Hello {{subscriber.subscriberId}}')] });
    const fanOutQueue = e.queue.queue(QUEUE_NAMES.events);
    await fanOutQueue.pause();
    let entries: Job<JobPayloads['fan-out']>[];
    const transactionIds: string[] = [];
    try {
      for (const subscriberId of ['starts-1', 'starts-2', 'starts-3']) {
        const response = await e.trigger({ name: workflow.identifier, to: subscriberId });
        transactionIds.push(response.transactionId!);
      }
      entries = (await fanOutQueue.getWaiting()) as Job<JobPayloads['fan-out']>[];
      // Run here instead, all at once: the queue would hand them over one by one.
      await fanOutQueue.drain();
    } finally {
      await fanOutQueue.resume();
    }
    expect(entries).toHaveLength(3);

    const fanOut = e.app.get(FanOutService);
    const reads = await statementsDuring(e.db, /FROM trigger_events/, async () => {
      const failures = await Promise.all(
        entries.map((entry) => fanOut.runMany(entry.data.environmentId, entry.data.eventIds)),
      );
      expect(failures.flat()).toEqual([]);
    });
    expect(reads).toHaveLength(1);

    for (const [index, transactionId] of transactionIds.entries()) {
      await e.settled(transactionId);
      const messages = await messagesOf(e, transactionId);
      expect(messages.map((message) => message.content)).toEqual([`Hello starts-${index + 1}`]);
    }
  }, 60_000);
});
