import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Novu } from '@novu/api';
import { eq } from 'drizzle-orm';
import { messages } from '#dal';
import { createWorkflow, inApp } from '../support/engine-fixtures.js';
import { sleep, waitFor } from '../support/wait.js';
import { expectValidationError, startSdkApp, type SdkApp } from './sdk-app.js';

describe('@novu/api: triggerBroadcast', () => {
  let sdk: SdkApp;
  /** The same service through a key of another organization's environment. */
  let foreign: Novu;

  beforeAll(async () => {
    sdk = await startSdkApp();
    const { apiKey } = await sdk.t.createForeignKey();
    foreign = new Novu({ secretKey: apiKey, serverURL: String(sdk.novu._baseURL), retryConfig: { strategy: 'none' } });
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it("delivers an in-app message to every live subscriber of the environment and none of another's", async () => {
    const workflow = await createWorkflow(sdk.t, {
      identifier: 'sdk-broadcast',
      steps: [inApp('To all: {{payload.n}}')],
    });
    for (const name of ['a', 'b', 'c']) await sdk.novu.subscribers.create({ subscriberId: `sdk-bc-${name}` });
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-bc-gone' });
    await sdk.novu.subscribers.delete('sdk-bc-gone');
    await foreign.subscribers.create({ subscriberId: 'sdk-bc-foreign' });
    const everyone = (await sdk.novu.subscribers.search({ limit: 100 })).result.data;
    expect(everyone.map((row) => row.subscriberId)).toEqual(
      expect.arrayContaining(['sdk-bc-a', 'sdk-bc-b', 'sdk-bc-c']),
    );

    const { result } = await sdk.novu.triggerBroadcast({
      name: workflow.identifier,
      payload: { n: 1 },
      transactionId: 'sdk-bc-txn',
    });
    expect(result).toEqual({ acknowledged: true, status: 'processed', transactionId: 'sdk-bc-txn' });

    const delivered = async () =>
      (await sdk.novu.messages.retrieve({ transactionId: ['sdk-bc-txn'], limit: 100 })).result.data;
    await waitFor(async () => (await delivered()).length >= everyone.length, {
      description: 'a message for every subscriber',
    });
    // Nothing more arrives: one message each, none for the deleted subscriber.
    await sleep(300);
    const messages = await delivered();
    expect(messages.map((message) => message.subscriberId).sort()).toEqual(everyone.map((row) => row.id).sort());
    expect(messages.every((message) => message.channel === 'in_app' && message.content === 'To all: 1')).toBe(true);
    const feed = await sdk.novu.subscribers.notifications.feed({ subscriberId: 'sdk-bc-b' });
    expect(feed.result.data.map((message) => message.transactionId)).toEqual(['sdk-bc-txn']);

    // The other environment's subscriber got nothing.
    expect((await foreign.messages.retrieve({ subscriberId: 'sdk-bc-foreign' })).result.data).toEqual([]);
    // And its key does not see this environment's workflow.
    await expectValidationError(foreign.triggerBroadcast({ name: workflow.identifier, payload: {} }));
  });

  it('an unknown workflow is a typed 422', async () => {
    const error = await expectValidationError(sdk.novu.triggerBroadcast({ name: 'sdk-no-such-workflow', payload: {} }));
    expect(error.message).toBe('workflow_not_found');
  });

  it('fans out past one chunk: each of 1,200 subscribers receives once', async () => {
    const workflow = await createWorkflow(sdk.t, { identifier: 'sdk-broadcast-many', steps: [inApp('Many')] });
    const ids = Array.from({ length: 1_200 }, (_, index) => `sdk-bc-many-${String(index).padStart(4, '0')}`);
    for (let start = 0; start < ids.length; start += 500) {
      const { result } = await sdk.novu.subscribers.createBulk({
        subscribers: ids.slice(start, start + 500).map((subscriberId) => ({ subscriberId })),
      });
      expect(result.failed).toEqual([]);
    }
    const total = (await sdk.novu.subscribers.search({})).result.totalCount;
    expect(total).toBeGreaterThanOrEqual(ids.length);

    await sdk.novu.triggerBroadcast({ name: workflow.identifier, payload: {}, transactionId: 'sdk-bc-many' });
    const delivered = async () =>
      (
        await sdk.t.db
          .select({ subscriberId: messages.subscriberId })
          .from(messages)
          .where(eq(messages.transactionId, 'sdk-bc-many'))
      ).map((row) => row.subscriberId);
    await waitFor(async () => (await delivered()).length >= total, {
      description: 'a message for every subscriber',
      timeoutMs: 60_000,
    });
    await sleep(300);
    const receivers = await delivered();
    expect(receivers).toHaveLength(total);
    expect(new Set(receivers).size).toBe(total);
    const last = await sdk.novu.subscribers.notifications.feed({ subscriberId: ids.at(-1)! });
    expect(last.result.data.map((message) => message.transactionId)).toEqual(['sdk-bc-many']);
  }, 90_000);
});
