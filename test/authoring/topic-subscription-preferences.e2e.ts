import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq, inArray } from 'drizzle-orm';
import { messages, subscribers, topicSubscribers, workflows } from '#dal';
import { createWorkflow, inApp, triggerAndSettle } from '../support/engine-fixtures.js';
import { expectValidationError, startSdkApp, type SdkApp } from '../sdk/sdk-app.js';

const TOPIC = 'tp-topic';
const MEMBERS = ['tp-all', 'tp-news', 'tp-off', 'tp-tag', 'tp-level', 'tp-team', 'tp-ctx', 'tp-actor'];

type CreateBody = Parameters<SdkApp['novu']['topics']['subscriptions']['create']>[0];

/** A topic subscription's preferences decide which of the topic's triggers reach the subscriber. */
describe('@novu/api: topic subscription preferences', () => {
  let sdk: SdkApp;
  let sequence = 0;

  const identifier = (subscriberId: string, topic = TOPIC) => `tk_${topic}:si_${subscriberId}`;

  async function subscribe(subscriberId: string, body: Omit<CreateBody, 'subscriptions'>) {
    const { result } = await sdk.novu.topics.subscriptions.create(
      { subscriptions: [{ identifier: identifier(subscriberId), subscriberId, name: `${subscriberId} sub` }], ...body },
      TOPIC,
    );
    expect(result.meta).toEqual({ totalCount: 1, successful: 1, failed: 0 });
    return result.data[0];
  }

  /** Triggers the workflow to the topic, waits until it settles, and answers who got an in-app message. */
  async function reached(workflowId: string, extra: Record<string, unknown> = {}): Promise<string[]> {
    const transactionId = `tp-${++sequence}`;
    await triggerAndSettle(sdk.t, {
      name: workflowId,
      to: [{ type: 'Topic', topicKey: TOPIC }],
      transactionId,
      ...extra,
    });
    const rows = await sdk.t.db
      .select({ subscriberId: subscribers.subscriberId, content: messages.content })
      .from(messages)
      .innerJoin(subscribers, eq(subscribers.id, messages.subscriberId))
      .where(and(eq(messages.transactionId, transactionId), eq(messages.channel, 'in_app')));
    for (const row of rows) expect(row.content).toBe(`${workflowId} says hi`);
    return rows.map((row) => row.subscriberId).sort();
  }

  async function storedPreferences(subscriberId: string): Promise<unknown> {
    const [row] = await sdk.t.db
      .select({ preferences: topicSubscribers.preferences })
      .from(topicSubscribers)
      .where(eq(topicSubscribers.externalSubscriberId, subscriberId));
    return row?.preferences;
  }

  beforeAll(async () => {
    sdk = await startSdkApp();
    for (const [id, tags] of [
      ['tp-newsletter', ['news']],
      ['tp-invoice', ['billing']],
      ['tp-alert', []],
    ] as const) {
      const row = await createWorkflow(sdk.t, { identifier: id, steps: [inApp(`${id} says hi`)] });
      await sdk.t.db
        .update(workflows)
        .set({ tags: [...tags] })
        .where(eq(workflows.id, row.id));
    }
    for (const subscriberId of MEMBERS)
      await sdk.novu.subscribers.create({
        subscriberId,
        data: { team: subscriberId === 'tp-team' ? 'red' : 'blue' },
      });
    await sdk.novu.subscribers.create({ subscriberId: 'tp-boss', firstName: 'Boss' });

    await subscribe('tp-all', {});
    await subscribe('tp-news', { preferences: ['tp-newsletter'] });
    await subscribe('tp-off', {
      preferences: [{ workflowId: 'tp-newsletter', enabled: false }, 'tp-invoice'],
    });
    await subscribe('tp-tag', { preferences: [{ filter: { tags: ['billing'] } }] });
    await subscribe('tp-level', {
      preferences: [{ workflowId: 'tp-alert', condition: { '>': [{ var: 'payload.level' }, 2] } }],
    });
    await subscribe('tp-team', {
      preferences: [
        { workflowId: 'tp-alert', condition: { '==': [{ var: 'subscriber.data.team' }, { var: 'payload.team' }] } },
      ],
    });
    await subscribe('tp-ctx', {
      context: { tenant: 'acme' },
      preferences: [
        { filter: { workflowIds: ['tp-alert'] }, condition: { '==': [{ var: 'context.tenant.id' }, 'acme'] } },
      ],
    });
    await subscribe('tp-actor', {
      preferences: [{ workflowId: 'tp-alert', condition: { '==': [{ var: 'actor.firstName' }, 'Boss'] } }],
    });
  });
  afterAll(async () => {
    await sdk?.close();
  });

  it('create answers each subscription with its name, context keys and preferences, as the SDK validates them', async () => {
    const created = await subscribe('tp-off', {
      preferences: [{ workflowId: 'tp-newsletter', enabled: false }, 'tp-invoice'],
    });
    expect(created).toMatchObject({ identifier: identifier('tp-off'), name: 'tp-off sub' });
    expect(created.preferences).toEqual([
      {
        subscriptionId: identifier('tp-off'),
        workflow: expect.objectContaining({ identifier: 'tp-newsletter', tags: ['news'], critical: false }),
        enabled: false,
      },
      {
        subscriptionId: identifier('tp-off'),
        workflow: expect.objectContaining({ identifier: 'tp-invoice', tags: ['billing'] }),
        enabled: true,
      },
    ]);

    const { result: ctx } = await sdk.novu.topics.subscriptions.getSubscription(TOPIC, identifier('tp-ctx'));
    expect(ctx).toEqual({
      id: expect.any(String),
      identifier: identifier('tp-ctx'),
      name: 'tp-ctx sub',
      contextKeys: ['tenant:acme'],
      preferences: [
        {
          subscriptionId: identifier('tp-ctx'),
          workflow: expect.objectContaining({ identifier: 'tp-alert', name: 'tp-alert', severity: 'none' }),
          enabled: true,
          condition: { '==': [{ var: 'context.tenant.id' }, 'acme'] },
        },
      ],
    });
    const { result: plain } = await sdk.novu.topics.subscriptions.getSubscription(TOPIC, identifier('tp-all'));
    expect(plain.preferences).toBeUndefined();

    const { result: page } = await sdk.novu.topics.subscriptions.list({ topicKey: TOPIC, limit: 100 });
    const byMember = new Map(page.data.map((row) => [row.subscriber.subscriberId, row]));
    expect(byMember.get('tp-tag')?.preferences?.map((entry) => entry.workflow?.identifier)).toEqual(['tp-invoice']);
    expect(byMember.get('tp-ctx')?.contextKeys).toEqual(['tenant:acme']);
    expect(byMember.get('tp-all')?.preferences).toBeUndefined();
  });

  it('a trigger reaches only the members whose preferences allow its workflow', async () => {
    expect(await reached('tp-newsletter')).toEqual(['tp-all', 'tp-news']);
    expect(await reached('tp-invoice')).toEqual(['tp-all', 'tp-off', 'tp-tag']);
  });

  it("conditions read the trigger's payload, context and actor and the member as subscriber", async () => {
    expect(
      await reached('tp-alert', {
        payload: { level: 3, team: 'red' },
        context: { tenant: 'acme' },
        actor: { subscriberId: 'tp-boss', firstName: 'Boss' },
      }),
    ).toEqual(['tp-actor', 'tp-all', 'tp-ctx', 'tp-level', 'tp-team']);
    expect(await reached('tp-alert', { payload: { level: 1, team: 'blue' }, context: { tenant: 'other' } })).toEqual([
      'tp-all',
    ]);
    expect(await reached('tp-alert', { payload: { level: 5 } })).toEqual(['tp-all', 'tp-level']);
  });

  it('update sets a name and preferences the next trigger follows; an empty list clears them', async () => {
    const { result } = await sdk.novu.topics.subscriptions.update({
      topicKey: TOPIC,
      identifier: identifier('tp-news'),
      updateTopicSubscriptionRequestDto: { name: 'Bills only', preferences: [{ filter: { tags: ['billing'] } }] },
    });
    expect(result).toMatchObject({ name: 'Bills only', identifier: identifier('tp-news') });
    expect(result.preferences?.map((entry) => [entry.workflow?.identifier, entry.enabled])).toEqual([
      ['tp-invoice', true],
    ]);
    expect(await reached('tp-newsletter')).toEqual(['tp-all']);

    const cleared = await sdk.novu.topics.subscriptions.update({
      topicKey: TOPIC,
      identifier: identifier('tp-news'),
      updateTopicSubscriptionRequestDto: { preferences: [] },
    });
    expect(cleared.result.preferences).toBeUndefined();
    expect(cleared.result.name).toBe('Bills only');
    expect(await storedPreferences('tp-news')).toBeNull();
    expect(await reached('tp-newsletter')).toEqual(['tp-all', 'tp-news']);
  });

  it('an invalid preference is a 422 naming its path, and nothing is saved', async () => {
    await sdk.novu.subscribers.create({ subscriberId: 'tp-bad' });
    const deep = (levels: number): Record<string, unknown> =>
      levels === 0 ? { var: 'payload.x' } : { '!': [deep(levels - 1)] };
    const cases: [CreateBody['preferences'], string][] = [
      [
        [{ workflowId: 'tp-alert', condition: { method: [{ var: 'payload.x' }, 'toString'] } }],
        'preferences.0.condition',
      ],
      [['tp-alert', { workflowId: 'tp-alert', condition: deep(10) }], 'preferences.1.condition'],
      [[{ workflowId: 'tp-alert', condition: { in: ['x', 'y'.repeat(5000)] } }], 'preferences.0.condition'],
      [
        [
          {
            workflowId: 'tp-alert',
            condition: { some: [{ var: 'payload.a' }, { some: [{ var: 'payload.b' }, { '==': [1, 1] }] }] },
          },
        ],
        'preferences.0.condition',
      ],
      [[{ workflowId: 'tp-alert', condition: { '==': [1, 1], '!=': [1, 2] } }], 'preferences.0.condition'],
      [[{ filter: {} }], 'preferences.0.filter'],
      [[{ filter: { tags: [''] } }], 'preferences.0.filter.tags'],
    ];
    for (const [preferences, path] of cases) {
      const error = await expectValidationError(
        sdk.novu.topics.subscriptions.create({ subscriptions: ['tp-bad'], preferences }, 'tp-bad-topic'),
      );
      expect(Object.keys(error.errors)).toEqual([path]);
    }
    const raw = await sdk.t
      .api('post', '/v2/topics/tp-bad-topic/subscriptions')
      .send({ subscriptions: ['tp-bad'], preferences: [{ workflowId: 'tp-alert', filter: { tags: ['x'] } }] });
    expect(raw.status).toBe(422);
    expect(Object.keys(raw.body.errors)).toEqual(['preferences.0']);
    const members = await sdk.t.db
      .select()
      .from(topicSubscribers)
      .where(inArray(topicSubscribers.externalSubscriberId, ['tp-bad']));
    expect(members).toEqual([]);

    const before = await storedPreferences('tp-level');
    const error = await expectValidationError(
      sdk.novu.topics.subscriptions.update({
        topicKey: TOPIC,
        identifier: identifier('tp-level'),
        updateTopicSubscriptionRequestDto: { preferences: [{ workflowId: 'tp-alert', condition: { log: 'x' } }] },
      }),
    );
    expect(Object.keys(error.errors)).toEqual(['preferences.0.condition']);
    expect(await storedPreferences('tp-level')).toEqual(before);
  });
});
