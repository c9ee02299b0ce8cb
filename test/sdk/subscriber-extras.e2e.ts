import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Novu } from '@novu/api';
import { createWorkflow, inApp } from '../support/engine-fixtures.js';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from './sdk-app.js';

/** The subscriber operations beyond CRUD: credentials replace and delete, topic subscriptions, bulk preferences. */
describe('@novu/api: subscriber credentials, subscriptions and bulk preferences', () => {
  let sdk: SdkApp;
  /** The same service through a key of another organization's environment. */
  let foreign: Novu;

  beforeAll(async () => {
    sdk = await startSdkApp();
    const { apiKey } = await sdk.t.createForeignKey();
    foreign = new Novu({
      secretKey: apiKey,
      serverURL: sdk.novu._baseURL!.toString(),
      retryConfig: { strategy: 'none' },
    });
    for (const providerId of ['fcm', 'slack'] as const) {
      await sdk.novu.integrations.create({
        providerId,
        channel: providerId === 'fcm' ? 'push' : 'chat',
        credentials: providerId === 'fcm' ? { serviceAccount: '{}' } : {},
        active: true,
      });
    }
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it('subscribers.credentials.update replaces the provider credentials, where append merges them', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-cred-put' });
    await sdk.novu.subscribers.credentials.append(
      { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/a', channel: 'general' } },
      'sdk-cred-put',
    );
    const { result } = await sdk.novu.subscribers.credentials.update(
      { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/b' } },
      'sdk-cred-put',
    );
    expect(result.subscriberId).toBe('sdk-cred-put');
    const retrieved = (await sdk.novu.subscribers.retrieve('sdk-cred-put')).result;
    // The stored channel key is gone: the entry holds exactly what the PUT sent.
    expect(retrieved.channels).toEqual([
      expect.objectContaining({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/b' } }),
    ]);

    // A provider without an entry gets one.
    await sdk.novu.subscribers.credentials.update(
      { providerId: 'fcm', credentials: { deviceTokens: ['t1', 't1', 't2'] } },
      'sdk-cred-put',
    );
    const both = (await sdk.novu.subscribers.retrieve('sdk-cred-put')).result.channels;
    expect(both?.map((entry) => [entry.providerId, entry.credentials])).toEqual([
      ['slack', { webhookUrl: 'https://hooks.example.com/b' }],
      ['fcm', { deviceTokens: ['t1', 't2'] }],
    ]);

    await expectErrorDto(
      sdk.novu.subscribers.credentials.update({ providerId: 'slack', credentials: {} }, 'sdk-nobody'),
      404,
    );
    // Another environment does not see the subscriber.
    await expectErrorDto(
      foreign.subscribers.credentials.update({ providerId: 'slack', credentials: {} }, 'sdk-cred-put'),
      404,
    );
    const invalid = await expectValidationError(
      sdk.novu.subscribers.credentials.update(
        { providerId: 'fcm', credentials: { deviceTokens: [''] } },
        'sdk-cred-put',
      ),
    );
    expect(Object.keys(invalid.errors)).toContain('credentials.deviceTokens');
  });

  it("subscribers.credentials.delete removes the provider's entry; the others stay", async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-cred-del' });
    await sdk.novu.subscribers.credentials.append(
      { providerId: 'fcm', credentials: { deviceTokens: ['d1'] } },
      'sdk-cred-del',
    );
    await sdk.novu.subscribers.credentials.append(
      { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/c' } },
      'sdk-cred-del',
    );
    // Another environment's key cannot touch it.
    await expectErrorDto(foreign.subscribers.credentials.delete('sdk-cred-del', 'fcm'), 404);

    await sdk.novu.subscribers.credentials.delete('sdk-cred-del', 'fcm');
    const channels = (await sdk.novu.subscribers.retrieve('sdk-cred-del')).result.channels;
    expect(channels?.map((entry) => entry.providerId)).toEqual(['slack']);

    // Deleting again changes nothing and is not an error.
    await sdk.novu.subscribers.credentials.delete('sdk-cred-del', 'fcm');
    await expectErrorDto(sdk.novu.subscribers.credentials.delete('sdk-nobody', 'fcm'), 404);
    await expectValidationError(sdk.novu.subscribers.credentials.delete('sdk-cred-del', 'not-a-provider'));
  });

  it("subscribers.topics.list shows the subscriber's topics, paginated and counted", async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-subs-topics', firstName: 'Topical' });
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-subs-other' });
    await sdk.novu.topics.create({ key: 'sdk-subs-news', name: 'News' });
    for (const key of ['sdk-subs-news', 'sdk-subs-alerts', 'sdk-subs-digest']) {
      await sdk.novu.topics.subscriptions.create({ subscriptions: ['sdk-subs-topics'] }, key);
    }
    await sdk.novu.topics.subscriptions.create({ subscriptions: ['sdk-subs-other'] }, 'sdk-subs-elsewhere');

    const first = await sdk.novu.subscribers.topics.list({ subscriberId: 'sdk-subs-topics', limit: 2 });
    expect(first.result.data.map((row) => row.topic.key)).toEqual(['sdk-subs-digest', 'sdk-subs-alerts']);
    expect(first.result).toMatchObject({ totalCount: 3, totalCountCapped: false, previous: null });
    expect(first.result.data[0]).toMatchObject({
      identifier: 'tk_sdk-subs-digest:si_sdk-subs-topics',
      subscriber: { subscriberId: 'sdk-subs-topics', firstName: 'Topical' },
    });
    const second = await sdk.novu.subscribers.topics.list({
      subscriberId: 'sdk-subs-topics',
      limit: 2,
      after: first.result.next!,
    });
    expect(second.result.data.map((row) => [row.topic.key, row.topic.name])).toEqual([['sdk-subs-news', 'News']]);
    expect(second.result.next).toBeNull();
    const filtered = await sdk.novu.subscribers.topics.list({ subscriberId: 'sdk-subs-topics', key: 'alert' });
    expect(filtered.result.data.map((row) => row.topic.key)).toEqual(['sdk-subs-alerts']);

    // An unsubscribe drops the topic from the list.
    await sdk.novu.topics.subscriptions.delete({ subscriptions: ['sdk-subs-topics'] }, 'sdk-subs-news');
    const after = await sdk.novu.subscribers.topics.list({ subscriberId: 'sdk-subs-topics' });
    expect(after.result.data.map((row) => row.topic.key)).toEqual(['sdk-subs-digest', 'sdk-subs-alerts']);
    expect(after.result.totalCount).toBe(2);

    await expectErrorDto(sdk.novu.subscribers.topics.list({ subscriberId: 'sdk-nobody' }), 404);
    await expectErrorDto(foreign.subscribers.topics.list({ subscriberId: 'sdk-subs-topics' }), 404);
    await expectValidationError(sdk.novu.subscribers.topics.list({ subscriberId: 'sdk-subs-topics', after: 'nope' }));
  });

  it('subscribers.preferences.bulkUpdate changes several workflows at once; the next list shows it', async () => {
    const alpha = await createWorkflow(sdk.t, { identifier: 'sdk-bulk-alpha', steps: [inApp('A')] });
    const beta = await createWorkflow(sdk.t, { identifier: 'sdk-bulk-beta', steps: [inApp('B')] });
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-bulk-prefs' });

    const { result } = await sdk.novu.subscribers.preferences.bulkUpdate(
      {
        preferences: [
          { workflowId: alpha.identifier, channels: { inApp: false } },
          { workflowId: beta.identifier, channels: { inApp: false } },
        ],
      },
      'sdk-bulk-prefs',
    );
    expect(result.map((row) => [row.level, row.workflow?.identifier, row.channels.inApp])).toEqual([
      ['template', 'sdk-bulk-alpha', false],
      ['template', 'sdk-bulk-beta', false],
    ]);
    const listed = await sdk.novu.subscribers.preferences.list({ subscriberId: 'sdk-bulk-prefs' });
    const inAppOf = (identifier: string) =>
      listed.result.workflows.find((row) => row.workflow.identifier === identifier)?.channels.inApp;
    expect([inAppOf('sdk-bulk-alpha'), inAppOf('sdk-bulk-beta')]).toEqual([false, false]);
    expect(listed.result.global.channels.inApp).toBe(true);

    // One unknown workflow fails the call and changes nothing.
    await expectErrorDto(
      sdk.novu.subscribers.preferences.bulkUpdate(
        {
          preferences: [
            { workflowId: alpha.identifier, channels: { inApp: true } },
            { workflowId: 'sdk-no-such-workflow', channels: { inApp: true } },
          ],
        },
        'sdk-bulk-prefs',
      ),
      404,
    );
    const unchanged = await sdk.novu.subscribers.preferences.list({ subscriberId: 'sdk-bulk-prefs' });
    expect(unchanged.result.workflows.find((row) => row.workflow.identifier === 'sdk-bulk-alpha')?.channels.inApp).toBe(
      false,
    );

    const change = { preferences: [{ workflowId: alpha.identifier, channels: { inApp: true } }] };
    await expectErrorDto(sdk.novu.subscribers.preferences.bulkUpdate(change, 'sdk-nobody'), 404);
    await expectErrorDto(foreign.subscribers.preferences.bulkUpdate(change, 'sdk-bulk-prefs'), 404);
    await expectValidationError(sdk.novu.subscribers.preferences.bulkUpdate({ preferences: [] }, 'sdk-bulk-prefs'));
  });
});
