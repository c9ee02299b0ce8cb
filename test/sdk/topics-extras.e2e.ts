import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Novu } from '@novu/api';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from './sdk-app.js';

/** Renaming a topic and addressing one of its subscriptions. */
describe('@novu/api: topic update, one subscription, membership check', () => {
  let sdk: SdkApp;
  /** The same service through a key of the Production environment. */
  let production: Novu;

  beforeAll(async () => {
    sdk = await startSdkApp();
    const { port } = sdk.t.app.getHttpServer().address() as { port: number };
    const { apiKey } = await sdk.t.createKeyFor('Production');
    production = new Novu({
      secretKey: apiKey,
      serverURL: `http://127.0.0.1:${port}`,
      retryConfig: { strategy: 'none' },
    });
    for (const id of ['sdk-x-a', 'sdk-x-b']) {
      await sdk.novu.subscribers.create({ subscriberId: id, firstName: id });
    }
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it('topics.update renames the topic; get shows the new name; unknown or foreign is a typed 404', async () => {
    const created = await sdk.novu.topics.create({ key: 'sdk-rename', name: 'Before' });
    const { result } = await sdk.novu.topics.update({ name: 'After' }, 'sdk-rename');
    expect(result).toMatchObject({ id: created.result.id, key: 'sdk-rename', name: 'After' });
    expect((await sdk.novu.topics.get('sdk-rename')).result.name).toBe('After');
    // Without a name the topic stays as it is.
    expect((await sdk.novu.topics.update({}, 'sdk-rename')).result.name).toBe('After');
    await expectErrorDto(sdk.novu.topics.update({ name: 'X' }, 'sdk-rename-missing'), 404);
    await expectErrorDto(production.topics.update({ name: 'X' }, 'sdk-rename'), 404);
    await expectValidationError(sdk.novu.topics.update({ name: 'x'.repeat(256) }, 'sdk-rename'));
    expect((await sdk.novu.topics.get('sdk-rename')).result.name).toBe('After');
  });

  it('topics.subscriptions.getSubscription finds a subscription by its identifier', async () => {
    const created = await sdk.novu.topics.subscriptions.create({ subscriptions: ['sdk-x-a'] }, 'sdk-one-sub');
    const { result } = await sdk.novu.topics.subscriptions.getSubscription('sdk-one-sub', 'tk_sdk-one-sub:si_sdk-x-a');
    expect(result).toEqual({ id: created.result.data[0].id, identifier: 'tk_sdk-one-sub:si_sdk-x-a' });
    // A non-member, an identifier of another topic, an unknown topic, another environment: typed 404s.
    await expectErrorDto(
      sdk.novu.topics.subscriptions.getSubscription('sdk-one-sub', 'tk_sdk-one-sub:si_sdk-x-b'),
      404,
    );
    await expectErrorDto(sdk.novu.topics.subscriptions.getSubscription('sdk-one-sub', 'tk_other:si_sdk-x-a'), 404);
    await expectErrorDto(
      sdk.novu.topics.subscriptions.getSubscription('sdk-no-topic', 'tk_sdk-no-topic:si_sdk-x-a'),
      404,
    );
    await expectErrorDto(
      production.topics.subscriptions.getSubscription('sdk-one-sub', 'tk_sdk-one-sub:si_sdk-x-a'),
      404,
    );
  });

  it('topics.subscriptions.update answers the subscription; bad preferences are a typed 422', async () => {
    const created = await sdk.novu.topics.subscriptions.create({ subscriptions: ['sdk-x-a'] }, 'sdk-upd-sub');
    const { result } = await sdk.novu.topics.subscriptions.update({
      topicKey: 'sdk-upd-sub',
      identifier: 'tk_sdk-upd-sub:si_sdk-x-a',
      updateTopicSubscriptionRequestDto: { name: 'Mine', preferences: ['some-workflow'] },
    });
    expect(result).toMatchObject({
      id: created.result.data[0].id,
      identifier: 'tk_sdk-upd-sub:si_sdk-x-a',
      topic: { key: 'sdk-upd-sub' },
      subscriber: { subscriberId: 'sdk-x-a', firstName: 'sdk-x-a' },
    });
    await expectErrorDto(
      sdk.novu.topics.subscriptions.update({
        topicKey: 'sdk-upd-sub',
        identifier: 'tk_sdk-upd-sub:si_sdk-x-b',
        updateTopicSubscriptionRequestDto: {},
      }),
      404,
    );
    await expectValidationError(
      sdk.novu.topics.subscriptions.update({
        topicKey: 'sdk-upd-sub',
        identifier: 'tk_sdk-upd-sub:si_sdk-x-a',
        updateTopicSubscriptionRequestDto: { preferences: [''] },
      }),
    );
  });

  it('topics.subscribers.retrieve shows a member; a non-member is a typed 404', async () => {
    await sdk.novu.topics.subscriptions.create({ subscriptions: ['sdk-x-a'] }, 'sdk-member');
    const { result } = await sdk.novu.topics.subscribers.retrieve('sdk-x-a', 'sdk-member');
    const topic = await sdk.novu.topics.get('sdk-member');
    const subscriber = await sdk.novu.subscribers.retrieve('sdk-x-a');
    expect(result).toEqual({
      organizationId: expect.any(String),
      environmentId: sdk.t.environment.id,
      subscriberId: subscriber.result.id,
      topicId: topic.result.id,
      topicKey: 'sdk-member',
      externalSubscriberId: 'sdk-x-a',
    });
    await expectErrorDto(sdk.novu.topics.subscribers.retrieve('sdk-x-b', 'sdk-member'), 404);
    await expectErrorDto(sdk.novu.topics.subscribers.retrieve('sdk-nobody', 'sdk-member'), 404);
    await expectErrorDto(production.topics.subscribers.retrieve('sdk-x-a', 'sdk-member'), 404);
  });

  it('topics.subscriptions.create accepts { identifier, subscriberId } items next to plain ids', async () => {
    const { result } = await sdk.novu.topics.subscriptions.create(
      { subscriptions: [{ identifier: 'sub-a', subscriberId: 'sdk-x-a' }, 'sdk-x-b'] },
      'sdk-objects',
    );
    expect(result.meta).toEqual({ totalCount: 2, successful: 2, failed: 0 });
    expect(result.data.map((row) => row.subscriber?.subscriberId).sort()).toEqual(['sdk-x-a', 'sdk-x-b']);
    const listed = await sdk.novu.topics.subscriptions.list({ topicKey: 'sdk-objects' });
    expect(listed.result.totalCount).toBe(2);
    await expectValidationError(
      sdk.novu.topics.subscriptions.create(
        { subscriptions: [{ identifier: 'sub-c', subscriberId: '' }] },
        'sdk-objects',
      ),
    );
  });
});
