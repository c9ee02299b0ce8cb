import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SubscriberResponseDto as SubscriberConflict } from '@novu/api/models/errors/index.js';
import { createWorkflow, inApp } from '../support/engine-fixtures.js';
import { expectErrorDto, expectValidationError, startSdkApp, type SdkApp } from './sdk-app.js';

describe('@novu/api: subscribers', () => {
  let sdk: SdkApp;
  beforeAll(async () => {
    sdk = await startSdkApp();
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it('subscribers.create returns the subscriber; failIfExists answers a 409 holding the existing one', async () => {
    const { result } = await sdk.novu.subscribers.create({
      subscriberId: 'sdk-ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      data: { plan: 'pro' },
    });
    expect(result).toMatchObject({
      subscriberId: 'sdk-ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      data: { plan: 'pro' },
      environmentId: sdk.t.environment.id,
      organizationId: sdk.t.environment.organizationId,
      deleted: false,
    });
    expect(result.id).toEqual(expect.any(String));
    // The SDK reads this 409 as a typed error holding the existing subscriber.
    const conflict = await sdk.novu.subscribers.create({ subscriberId: 'sdk-ada', firstName: 'Other' }, true).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(conflict).toBeInstanceOf(SubscriberConflict);
    expect(conflict).toMatchObject({ statusCode: 409, subscriberId: 'sdk-ada', firstName: 'Ada', id: result.id });
    expect((await sdk.novu.subscribers.retrieve('sdk-ada')).result.firstName).toBe('Ada');
  });

  it('subscribers.retrieve returns the stored subscriber; an unknown one is a typed 404', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-grace', firstName: 'Grace' });
    const { result } = await sdk.novu.subscribers.retrieve('sdk-grace');
    expect(result).toMatchObject({ subscriberId: 'sdk-grace', firstName: 'Grace' });
    const error = await expectErrorDto(sdk.novu.subscribers.retrieve('sdk-nobody'), 404);
    expect(error.message).toContain('sdk-nobody');
  });

  it('subscribers.search finds by email and counts the matches', async () => {
    for (const name of ['one', 'two', 'three']) {
      await sdk.novu.subscribers.create({ subscriberId: `sdk-search-${name}`, email: `${name}@search.test` });
    }
    const { result } = await sdk.novu.subscribers.search({ email: '@search.test', limit: 2 });
    expect(result.data.map((row) => row.subscriberId)).toEqual(['sdk-search-three', 'sdk-search-two']);
    expect(result.totalCount).toBe(3);
    expect(result.totalCountCapped).toBe(false);
    expect(result.next).toEqual(expect.any(String));
    const next = await sdk.novu.subscribers.search({ email: '@search.test', limit: 2, after: result.next! });
    expect(next.result.data.map((row) => row.subscriberId)).toEqual(['sdk-search-one']);
    expect(next.result.next).toBeNull();
  });

  it('subscribers.patch changes the given fields and keeps the others', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-patch', firstName: 'Old', email: 'keep@example.com' });
    const { result } = await sdk.novu.subscribers.patch({ firstName: 'New', locale: 'fr' }, 'sdk-patch');
    expect(result).toMatchObject({ firstName: 'New', locale: 'fr', email: 'keep@example.com' });
    expect((await sdk.novu.subscribers.retrieve('sdk-patch')).result.firstName).toBe('New');
    await expectErrorDto(sdk.novu.subscribers.patch({ firstName: 'x' }, 'sdk-nobody'), 404);
  });

  it('subscribers.delete acknowledges; the next retrieve is a typed 404 and the search count drops', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-gone', email: 'gone@delete.test' });
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-stays', email: 'stays@delete.test' });
    expect((await sdk.novu.subscribers.search({ email: '@delete.test' })).result.totalCount).toBe(2);
    const { result } = await sdk.novu.subscribers.delete('sdk-gone');
    expect(result).toEqual({ acknowledged: true, status: 'deleted' });
    await expectErrorDto(sdk.novu.subscribers.retrieve('sdk-gone'), 404);
    expect((await sdk.novu.subscribers.search({ email: '@delete.test' })).result.totalCount).toBe(1);
    await expectErrorDto(sdk.novu.subscribers.delete('sdk-gone'), 404);
  });

  it('subscribers.createBulk reports created, updated and failed entries', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-bulk-existing' });
    const { result } = await sdk.novu.subscribers.createBulk({
      subscribers: [
        { subscriberId: 'sdk-bulk-new', firstName: 'New' },
        { subscriberId: 'sdk-bulk-existing', firstName: 'Updated' },
      ],
    });
    expect(result.created).toEqual([{ subscriberId: 'sdk-bulk-new' }]);
    expect(result.updated).toEqual([{ subscriberId: 'sdk-bulk-existing' }]);
    expect(result.failed).toEqual([]);
    expect((await sdk.novu.subscribers.retrieve('sdk-bulk-existing')).result.firstName).toBe('Updated');
  });

  it('subscribers.credentials.append stores the device tokens of a push provider', async () => {
    await sdk.novu.integrations.create({
      providerId: 'fcm',
      channel: 'push',
      credentials: { serviceAccount: '{}' },
      active: true,
    });
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-push' });
    const { result } = await sdk.novu.subscribers.credentials.append(
      { providerId: 'fcm', credentials: { deviceTokens: ['token-a', 'token-b'] } },
      'sdk-push',
    );
    expect(result.subscriberId).toBe('sdk-push');
    expect(result.channels).toEqual([
      expect.objectContaining({ providerId: 'fcm', credentials: { deviceTokens: ['token-a', 'token-b'] } }),
    ]);
    await expectErrorDto(
      sdk.novu.subscribers.credentials.append(
        { providerId: 'fcm', credentials: { deviceTokens: ['t'] } },
        'sdk-nobody',
      ),
      404,
    );
  });

  it('subscribers.properties.updateOnlineFlag sets isOnline', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-online' });
    const online = await sdk.novu.subscribers.properties.updateOnlineFlag({ isOnline: true }, 'sdk-online');
    expect(online.result).toMatchObject({ subscriberId: 'sdk-online', isOnline: true });
    const offline = await sdk.novu.subscribers.properties.updateOnlineFlag({ isOnline: false }, 'sdk-online');
    expect(offline.result.isOnline).toBe(false);
    expect(offline.result.lastOnlineAt).toEqual(expect.any(String));
  });

  it('subscribers.preferences.list and update: a channel turned off shows in the next list', async () => {
    const workflow = await createWorkflow(sdk.t, { identifier: 'sdk-prefs', steps: [inApp('Hi')] });
    await sdk.novu.subscribers.create({ subscriberId: 'sdk-prefs-sub' });
    const before = await sdk.novu.subscribers.preferences.list({ subscriberId: 'sdk-prefs-sub' });
    expect(before.result.global.enabled).toBe(true);
    const row = before.result.workflows.find((entry) => entry.workflow.identifier === 'sdk-prefs');
    expect(row?.channels.inApp).toBe(true);

    const updated = await sdk.novu.subscribers.preferences.update(
      { channels: { inApp: false }, workflowId: workflow.identifier },
      'sdk-prefs-sub',
    );
    const after = updated.result.workflows.find((entry) => entry.workflow.identifier === 'sdk-prefs');
    expect(after?.channels.inApp).toBe(false);
    const listed = await sdk.novu.subscribers.preferences.list({ subscriberId: 'sdk-prefs-sub' });
    expect(listed.result.workflows.find((entry) => entry.workflow.identifier === 'sdk-prefs')?.channels.inApp).toBe(
      false,
    );

    const global = await sdk.novu.subscribers.preferences.update({ channels: { email: false } }, 'sdk-prefs-sub');
    expect(global.result.global.channels.email).toBe(false);
    await expectErrorDto(sdk.novu.subscribers.preferences.list({ subscriberId: 'sdk-nobody' }), 404);
  });

  it('invalid input is a typed 422 ValidationErrorDto', async () => {
    const error = await expectValidationError(sdk.novu.subscribers.create({ subscriberId: 'sdk-bad', email: 'nope' }));
    expect(Object.keys(error.errors)).toContain('email');
  });
});
