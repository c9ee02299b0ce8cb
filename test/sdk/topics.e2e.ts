import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TopicResponseDto as TopicConflict } from '@novu/api/models/errors/index.js';
import { expectErrorDto, startSdkApp, type SdkApp } from './sdk-app.js';

describe('@novu/api: topics and topic subscriptions', () => {
  let sdk: SdkApp;
  beforeAll(async () => {
    sdk = await startSdkApp();
    for (const id of ['sdk-t-a', 'sdk-t-b', 'sdk-t-c']) {
      await sdk.novu.subscribers.create({ subscriberId: id, firstName: id });
    }
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it('topics.create returns the topic (name absent when none was given); failIfExists is a 409 holding the existing one', async () => {
    const { result } = await sdk.novu.topics.create({ key: 'sdk-news', name: 'News' });
    expect(result).toMatchObject({ key: 'sdk-news', name: 'News' });
    expect(result.id).toEqual(expect.any(String));
    const unnamed = await sdk.novu.topics.create({ key: 'sdk-unnamed' });
    expect(unnamed.result.key).toBe('sdk-unnamed');
    expect(unnamed.result).not.toHaveProperty('name');
    // The SDK reads this 409 as a typed error holding the existing topic.
    const conflict = await sdk.novu.topics.create({ key: 'sdk-news', name: 'Renamed' }, true).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(conflict).toBeInstanceOf(TopicConflict);
    expect(conflict).toMatchObject({ statusCode: 409, key: 'sdk-news', id: result.id });
    // The error's own `name` is its class name; the topic's is kept in data$.
    expect((conflict as TopicConflict).data$.name).toBe('News');
  });

  it('topics.get returns the topic; an unknown key is a typed 404', async () => {
    await sdk.novu.topics.create({ key: 'sdk-get', name: 'Get me' });
    const { result } = await sdk.novu.topics.get('sdk-get');
    expect(result).toMatchObject({ key: 'sdk-get', name: 'Get me' });
    await expectErrorDto(sdk.novu.topics.get('sdk-missing'), 404);
  });

  it('topics.list filters by key and counts the matches', async () => {
    for (const n of [1, 2, 3]) await sdk.novu.topics.create({ key: `sdk-list-${n}` });
    const { result } = await sdk.novu.topics.list({ key: 'sdk-list-', limit: 2 });
    expect(result.data.map((topic) => topic.key)).toEqual(['sdk-list-3', 'sdk-list-2']);
    expect(result.totalCount).toBe(3);
    expect(result.totalCountCapped).toBe(false);
    const next = await sdk.novu.topics.list({ key: 'sdk-list-', limit: 2, after: result.next! });
    expect(next.result.data.map((topic) => topic.key)).toEqual(['sdk-list-1']);
  });

  it('topics.delete acknowledges; the next get is a typed 404 and the list count drops', async () => {
    await sdk.novu.topics.create({ key: 'sdk-del-1' });
    await sdk.novu.topics.create({ key: 'sdk-del-2' });
    expect((await sdk.novu.topics.list({ key: 'sdk-del-' })).result.totalCount).toBe(2);
    const { result } = await sdk.novu.topics.delete('sdk-del-1');
    expect(result.acknowledged).toBe(true);
    await expectErrorDto(sdk.novu.topics.get('sdk-del-1'), 404);
    expect((await sdk.novu.topics.list({ key: 'sdk-del-' })).result.totalCount).toBe(1);
    await expectErrorDto(sdk.novu.topics.delete('sdk-del-1'), 404);
  });

  it('topics.subscriptions.create subscribes and reports unknown subscribers', async () => {
    const { result } = await sdk.novu.topics.subscriptions.create(
      { subscriptions: ['sdk-t-a', 'sdk-t-b', 'sdk-ghost'] },
      'sdk-members',
    );
    expect(result.meta).toEqual({ totalCount: 3, successful: 2, failed: 1 });
    expect(result.errors).toEqual([expect.objectContaining({ subscriberId: 'sdk-ghost' })]);
    const a = result.data.find((row) => row.subscriber?.subscriberId === 'sdk-t-a');
    expect(a).toMatchObject({
      id: expect.any(String),
      identifier: 'tk_sdk-members:si_sdk-t-a',
      topic: { key: 'sdk-members' },
      subscriber: { subscriberId: 'sdk-t-a', firstName: 'sdk-t-a' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('topics.subscriptions.list returns the members with their subscription ids and a count', async () => {
    await sdk.novu.topics.subscriptions.create({ subscriptions: ['sdk-t-a', 'sdk-t-b', 'sdk-t-c'] }, 'sdk-listed');
    const { result } = await sdk.novu.topics.subscriptions.list({ topicKey: 'sdk-listed', limit: 2 });
    expect(result.totalCount).toBe(3);
    expect(result.totalCountCapped).toBe(false);
    expect(result.data).toHaveLength(2);
    for (const row of result.data) {
      expect(row).toMatchObject({
        id: expect.any(String),
        identifier: `tk_sdk-listed:si_${row.subscriber.subscriberId}`,
        topic: { key: 'sdk-listed' },
        createdAt: expect.any(String),
      });
    }
    const next = await sdk.novu.topics.subscriptions.list({ topicKey: 'sdk-listed', limit: 2, after: result.next! });
    const all = [...result.data, ...next.result.data].map((row) => row.subscriber.subscriberId).sort();
    expect(all).toEqual(['sdk-t-a', 'sdk-t-b', 'sdk-t-c']);
    // The same subscription keeps its id from one answer to the next.
    const again = await sdk.novu.topics.subscriptions.list({ topicKey: 'sdk-listed', limit: 2 });
    expect(again.result.data.map((row) => row.id)).toEqual(result.data.map((row) => row.id));
    await expectErrorDto(sdk.novu.topics.subscriptions.list({ topicKey: 'sdk-nowhere' }), 404);
  });

  it('topics.subscriptions.delete unsubscribes: the member count drops', async () => {
    await sdk.novu.topics.subscriptions.create({ subscriptions: ['sdk-t-a', 'sdk-t-b'] }, 'sdk-leaving');
    const { result } = await sdk.novu.topics.subscriptions.delete(
      { subscriptions: ['sdk-t-a', 'sdk-t-c'] },
      'sdk-leaving',
    );
    expect(result.meta).toEqual({ totalCount: 2, successful: 1, failed: 1 });
    expect(result.data.map((row) => row.subscriber?.subscriberId)).toEqual(['sdk-t-a']);
    expect(result.data[0]).toMatchObject({ id: expect.any(String), identifier: 'tk_sdk-leaving:si_sdk-t-a' });
    const listed = await sdk.novu.topics.subscriptions.list({ topicKey: 'sdk-leaving' });
    expect(listed.result.totalCount).toBe(1);
    expect(listed.result.data.map((row) => row.subscriber.subscriberId)).toEqual(['sdk-t-b']);
    await expectErrorDto(sdk.novu.topics.subscriptions.delete({ subscriptions: ['sdk-t-a'] }, 'sdk-nowhere'), 404);
  });
});
