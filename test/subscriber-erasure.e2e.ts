import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { messages, preferences, subscribers, topicSubscribers } from '#dal';
import { createIntegration, createSubscriber, createTopic, insertMessages } from './support/builders.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Deleting a subscriber (`DELETE /v2/subscribers/{id}`, Novu's call) erases what it held at once: its
 * personal fields and channel credentials, messages of every channel, preferences and topic memberships.
 */
describe('subscriber erasure', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const rowsOf = async (rowId: string) => ({
    messages: await t.db.select().from(messages).where(eq(messages.subscriberId, rowId)),
    preferences: await t.db.select().from(preferences).where(eq(preferences.subscriberId, rowId)),
    memberships: await t.db.select().from(topicSubscribers).where(eq(topicSubscribers.subscriberId, rowId)),
  });

  it('leaves no message, preference, membership, credential or personal field behind; a new subscriber with the id starts empty', async () => {
    await createIntegration(t, { providerId: 'discord', channel: 'chat' });
    const subscriber = await createSubscriber(t, {
      subscriberId: 'erin',
      firstName: 'Erin',
      email: 'erin@example.com',
      phone: '+15555550100',
      data: { plan: 'gold' },
      channels: [{ providerId: 'discord', credentials: { webhookUrl: 'https://discord.example/erin' } }],
    });
    const rowId = subscriber._id as string;
    await insertMessages(t, subscriber, [
      { channel: 'in_app', content: 'your invoice' },
      { channel: 'email', content: '<p>your invoice</p>', email: 'erin@example.com' },
    ]);
    const preference = await t.api('patch', '/v2/subscribers/erin/preferences').send({ channels: { email: false } });
    expect(preference.status).toBe(200);
    await createTopic(t, 'erasure-news');
    expect(
      (await t.api('post', '/v2/topics/erasure-news/subscriptions').send({ subscriptions: ['erin'] })).status,
    ).toBeLessThan(300);
    const before = await rowsOf(rowId);
    expect([before.messages.length, before.preferences.length, before.memberships.length]).toEqual([2, 1, 1]);

    expect((await t.api('delete', '/v2/subscribers/erin')).status).toBe(200);

    expect(await rowsOf(rowId)).toEqual({ messages: [], preferences: [], memberships: [] });
    const [row] = await t.db.select().from(subscribers).where(eq(subscribers.id, rowId));
    expect(row).toMatchObject({
      deleted: true,
      firstName: null,
      email: null,
      phone: null,
      data: null,
      channels: [],
    });
    expect(JSON.stringify(row)).not.toMatch(/erin@example|555550100|gold|discord\.example/);

    // Created again through the API: nothing of the deleted subscriber comes back.
    await createSubscriber(t, { subscriberId: 'erin', firstName: 'Another Erin' });
    const again = await t.api('get', '/v2/subscribers/erin');
    expect(again.body).toMatchObject({ subscriberId: 'erin', firstName: 'Another Erin' });
    expect(again.body.email ?? null).toBeNull();
    expect(again.body.data ?? null).toBeNull();
    expect(again.body.channels ?? []).toEqual([]);
    const feed = await t.api('get', '/v1/subscribers/erin/notifications/feed');
    expect(feed.body.data).toEqual([]);
    const members = await t.api('get', '/v2/topics/erasure-news/subscriptions');
    expect(members.body.data).toEqual([]);
  });
});
