import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import { subscribers, triggerEvents } from '#dal';
import { createWorkflow, inApp } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

/** Values PATCH refuses, which a trigger's inline `to` once stored. */
const HUGE_NAME = 'x'.repeat(200_000);
const BAD_ZONE = 'Mars/Olympus';

describe('one validation for every way a subscriber is written', () => {
  let t: TestApp;
  let workflowId: string;
  beforeAll(async () => {
    t = await startTestApp();
    workflowId = (await createWorkflow(t, { steps: [inApp()] })).identifier;
  });
  afterAll(async () => {
    await t?.close();
  });

  const storedSubscriber = async (subscriberId: string) =>
    (
      await t.db
        .select()
        .from(subscribers)
        .where(and(eq(subscribers.environmentId, t.environment.id), eq(subscribers.subscriberId, subscriberId)))
    )[0];
  const eventCount = async () => (await t.db.select().from(triggerEvents)).length;
  const trigger = (body: Record<string, unknown>) =>
    t.api('post', '/v1/events/trigger').send({ name: workflowId, ...body });

  it('PATCH and POST /v2/subscribers refuse the values (the reference behaviour)', async () => {
    expect((await t.api('post', '/v2/subscribers').send({ subscriberId: 'val-ref' })).status).toBe(201);
    // 200,000 characters are over the route's 100 KB body limit (413): 256 are enough for the rule.
    const patched = await t
      .api('patch', '/v2/subscribers/val-ref')
      .send({ timezone: BAD_ZONE, firstName: 'x'.repeat(256) });
    expect(patched.status).toBe(422);
    expect(Object.keys(patched.body.errors).sort()).toEqual(['firstName', 'timezone']);
    const created = await t.api('post', '/v2/subscribers').send({ subscriberId: 'val-ref-2', timezone: BAD_ZONE });
    expect(created.status).toBe(422);
    expect(Object.keys(created.body.errors)).toEqual(['timezone']);
  });

  it('the inline subscriber of a trigger: 422 naming to.<field> or to[i].<field>; neither the event nor the subscriber is stored', async () => {
    const before = await eventCount();
    const single = await trigger({ to: { subscriberId: 'val-inline', timezone: BAD_ZONE, firstName: HUGE_NAME } });
    expect(single.status).toBe(422);
    expect(Object.keys(single.body.errors).sort()).toEqual(['to.firstName', 'to.timezone']);
    expect(single.body.errors['to.timezone'].value).toBe(BAD_ZONE);

    const inArray = await trigger({ to: ['val-plain', { subscriberId: 'val-inline', timezone: BAD_ZONE }] });
    expect(inArray.status).toBe(422);
    expect(Object.keys(inArray.body.errors)).toEqual(['to[1].timezone']);
    expect(inArray.body.message).toContain('to[1].timezone');

    for (const [field, value] of [
      ['lastName', 'y'.repeat(256)],
      ['phone', '1'.repeat(65)],
      ['locale', 42],
      ['avatar', 'a'.repeat(2049)],
      ['data', 'not-an-object'],
      ['channels', [{ providerId: 'not-a-provider', credentials: {} }]],
    ] as const) {
      const res = await trigger({ to: [{ subscriberId: 'val-inline', [field]: value }] });
      expect({ field, status: res.status, first: Object.keys(res.body.errors ?? {})[0] }).toMatchObject({
        field,
        status: 422,
        first: expect.stringMatching(new RegExp(`^to\\[0\\]\\.${field}`)),
      });
    }
    expect(await eventCount()).toBe(before);
    expect(await storedSubscriber('val-inline')).toBeUndefined();
  });

  it('the actor: 422 naming actor.<field>', async () => {
    const res = await trigger({
      to: 'val-plain',
      actor: { subscriberId: 'val-actor', timezone: BAD_ZONE, firstName: HUGE_NAME },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['actor.firstName', 'actor.timezone']);
    expect(await storedSubscriber('val-actor')).toBeUndefined();
  });

  it('a bulk trigger: the event answers error naming the field, the others are processed, the subscriber is not written', async () => {
    const res = await t.api('post', '/v1/events/trigger/bulk').send({
      events: [
        { name: workflowId, to: [{ subscriberId: 'val-bulk', timezone: BAD_ZONE }], transactionId: 'val-bulk-bad' },
        {
          name: workflowId,
          to: 'val-bulk-ok',
          actor: { subscriberId: 'val-bulk-actor', firstName: HUGE_NAME },
          transactionId: 'val-bulk-actor',
        },
        {
          name: workflowId,
          to: { subscriberId: 'val-bulk-good', timezone: 'Europe/Paris', firstName: 'Good' },
          transactionId: 'val-bulk-good',
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body[0]).toMatchObject({ status: 'error', transactionId: 'val-bulk-bad' });
    expect(res.body[0].error.join(' ')).toContain('to[0].timezone');
    expect(res.body[1]).toMatchObject({ status: 'error', transactionId: 'val-bulk-actor' });
    expect(res.body[1].error.join(' ')).toContain('actor.firstName');
    expect(res.body[2]).toMatchObject({ status: 'processed', transactionId: 'val-bulk-good' });
    await waitFor(async () => (await storedSubscriber('val-bulk-good')) !== undefined, {
      description: 'the valid inline subscriber',
    });
    expect(await storedSubscriber('val-bulk-good')).toMatchObject({ timezone: 'Europe/Paris', firstName: 'Good' });
    expect(await storedSubscriber('val-bulk')).toBeUndefined();
    expect(await storedSubscriber('val-bulk-actor')).toBeUndefined();
  });

  it('POST /v1/subscribers/bulk: the item fails naming the field', async () => {
    const res = await t.api('post', '/v1/subscribers/bulk').send({
      subscribers: [
        { subscriberId: 'val-sub-bulk', timezone: BAD_ZONE },
        { subscriberId: 'val-sub-bulk-2', firstName: HUGE_NAME.slice(0, 300) },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.failed).toEqual([
      { subscriberId: 'val-sub-bulk', message: expect.stringMatching(/^timezone: /) },
      { subscriberId: 'val-sub-bulk-2', message: expect.stringMatching(/^firstName: /) },
    ]);
    expect(await storedSubscriber('val-sub-bulk')).toBeUndefined();
  });

  it('a valid inline subscriber is still written with its fields (and unknown fields are left alone)', async () => {
    const res = await trigger({
      to: {
        subscriberId: 'val-written',
        firstName: 'Ada',
        timezone: 'Europe/London',
        email: 'ada@acme.test',
        unknown: 1,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('processed');
    await waitFor(async () => (await storedSubscriber('val-written')) !== undefined, {
      description: 'the inline subscriber',
    });
    expect(await storedSubscriber('val-written')).toMatchObject({
      firstName: 'Ada',
      timezone: 'Europe/London',
      email: 'ada@acme.test',
    });
  });
});
