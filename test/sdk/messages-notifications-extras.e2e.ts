import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Novu } from '@novu/api';
import { createWorkflow, inApp } from '../support/engine-fixtures.js';
import { waitFor } from '../support/wait.js';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from './sdk-app.js';

/** Deleting a transaction's messages and reading one notification. */
describe('@novu/api: messages by transaction, one notification', () => {
  let sdk: SdkApp;
  /** The same service through a key of the Production environment. */
  let production: Novu;
  let welcome: string;

  /** Triggers `welcome` for the subscriber and waits until its in-app message exists. */
  async function deliver(subscriberId: string, transactionId: string): Promise<void> {
    await sdk.novu.trigger({ workflowId: welcome, to: subscriberId, payload: { n: transactionId }, transactionId });
    await waitFor(
      async () => (await sdk.novu.messages.retrieve({ transactionId: [transactionId] })).result.data.length === 1,
      { description: `the message of ${transactionId}` },
    );
  }

  beforeAll(async () => {
    sdk = await startSdkApp();
    const { port } = sdk.t.app.getHttpServer().address() as { port: number };
    const { apiKey } = await sdk.t.createKeyFor('Production');
    production = new Novu({
      secretKey: apiKey,
      serverURL: `http://127.0.0.1:${port}`,
      retryConfig: { strategy: 'none' },
    });
    welcome = (await createWorkflow(sdk.t, { identifier: 'sdk-extras', steps: [inApp('Hi {{payload.n}}')] }))
      .identifier;
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it("messages.deleteByTransactionId deletes the transaction's messages; the next one is a typed 404", async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-txdel' });
    await deliver('sdk-txdel', 'sdk-txdel-1');
    await deliver('sdk-txdel', 'sdk-txdel-keep');
    // Another environment does not see the transaction.
    await expectErrorDto(production.messages.deleteByTransactionId('sdk-txdel-1'), 404);
    // A channel without messages in the transaction deletes nothing.
    await expectErrorDto(sdk.novu.messages.deleteByTransactionId('sdk-txdel-1', 'email'), 404);
    // A 204: the SDK answers nothing but the headers.
    await sdk.novu.messages.deleteByTransactionId('sdk-txdel-1', 'in_app');
    expect((await sdk.novu.messages.retrieve({ transactionId: ['sdk-txdel-1'] })).result.data).toEqual([]);
    const left = await sdk.novu.messages.retrieve({ subscriberId: 'sdk-txdel' });
    expect(left.result.data.map((message) => message.transactionId)).toEqual(['sdk-txdel-keep']);
    await expectErrorDto(sdk.novu.messages.deleteByTransactionId('sdk-txdel-1'), 404);
  });

  it("notifications.retrieve returns the list's item with its jobs; unknown or foreign is a typed 404", async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-one', firstName: 'One' });
    await deliver('sdk-one', 'sdk-one-1');
    await waitFor(
      async () =>
        (await sdk.novu.notifications.list({ transactionId: 'sdk-one-1' })).result.data[0]?.jobs?.[0]?.status ===
        'completed',
      { description: 'the job to complete' },
    );
    const listed = (await sdk.novu.notifications.list({ transactionId: 'sdk-one-1' })).result.data[0];
    const { result } = await sdk.novu.notifications.retrieve(listed.id!);
    expect(result).toEqual(listed);
    expect(result).toMatchObject({ transactionId: 'sdk-one-1', subscriber: { subscriberId: 'sdk-one' } });
    expect(result.jobs?.map((job) => job.type)).toEqual(['in_app']);
    expect(result.jobs?.[0].executionDetails.length).toBeGreaterThan(0);
    await expectErrorDto(production.notifications.retrieve(listed.id!), 404);
    await expectErrorDto(sdk.novu.notifications.retrieve('01890000-0000-7000-8000-000000000000'), 404);
    await expectValidationError(sdk.novu.notifications.retrieve('not-an-id'));
  });
});
