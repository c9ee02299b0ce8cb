import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { jobs, notifications, triggerEvents } from '#dal';
import { createWorkflow, inApp, step } from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

/** The Monday (UTC, YYYYMMDD) that starts the week partition of a time. */
const partitionStart = (at: Date): string => {
  const day = Math.floor(at.getTime() / 86_400_000);
  // Day 4 of the epoch (1970-01-05) was a Monday.
  const monday = new Date((day - ((((day - 4) % 7) + 7) % 7)) * 86_400_000);
  return monday.toISOString().slice(0, 10).replace(/-/g, '');
};

describe('POST /v1/events/trigger and /bulk: statuses', () => {
  let t: TestApp;
  let identifier: string;
  let workflowId: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ identifier, id: workflowId } = await createWorkflow(t, { steps: [inApp()] }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const trigger = (body: Record<string, unknown>) => t.api('post', '/v1/events/trigger').send(body);
  const eventRows = () => t.db.select().from(triggerEvents);

  it('answers 422 workflow_not_found for an unknown workflow', async () => {
    const res = await trigger({ name: 'nope', to: 'sub-1' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('workflow_not_found');
    expect(res.body.error).toBe('Unprocessable Entity');
  });

  it('validates the body (422): name and to required, actor and tenant shapes', async () => {
    const res = await trigger({ payload: 'x', actor: 42, tenant: { name: 'x' } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['actor', 'name', 'payload', 'tenant', 'to']);
  });

  it('stores the event as sent: nested payload kept, unknown top-level fields dropped; a body that is not an object is 422', async () => {
    const payload = { order: { id: 'o-1', lines: [{ sku: 'a', qty: 2 }] }, empty: {}, list: [1, 'two', null] };
    const res = await trigger({
      name: identifier,
      to: 'single-1',
      payload,
      transactionId: 'single-txn-1',
      unknownField: 'dropped',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ acknowledged: true, status: 'processed', transactionId: 'single-txn-1' });
    const [row] = await eventRows().where(eq(triggerEvents.transactionId, 'single-txn-1'));
    expect(row.request).toMatchObject({ name: identifier, to: 'single-1', payload, overrides: {} });
    expect(row.request).not.toHaveProperty('unknownField');

    const before = (await eventRows()).length;
    const array = await t.api('post', '/v1/events/trigger').send([{ name: identifier, to: 'single-2' }]);
    expect(array.status).toBe(422);
    expect(Object.keys(array.body.errors).sort()).toEqual(['name', 'to']);
    expect((await eventRows()).length).toBe(before);
  });

  it('trigger_not_active, no_workflow_steps_defined, no_workflow_active_steps_defined', async () => {
    const inactive = await createWorkflow(t, { steps: [inApp()], active: false });
    const empty = await createWorkflow(t, { steps: [] });
    const allInactive = await createWorkflow(t, { steps: [inApp('x', { active: false })] });
    const before = (await eventRows()).length;
    for (const [workflow, status] of [
      [inactive, 'trigger_not_active'],
      [empty, 'no_workflow_steps_defined'],
      [allInactive, 'no_workflow_active_steps_defined'],
    ] as const) {
      const res = await trigger({ name: workflow.identifier, to: 'sub-1' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ acknowledged: true, status });
    }
    expect((await eventRows()).length).toBe(before);
  });

  it('no_tenant_found for an unknown tenant, processed for a known one', async () => {
    expect((await trigger({ name: identifier, to: 'sub-1', tenant: 'ghost' })).body.status).toBe('no_tenant_found');
    expect((await trigger({ name: identifier, to: 'sub-1', tenant: { identifier: 'ghost' } })).body.status).toBe(
      'no_tenant_found',
    );
    await t.api('post', '/v1/tenants').send({ identifier: 'acme', name: 'Acme' }).expect(201);
    expect((await trigger({ name: identifier, to: 'sub-1', tenant: 'acme' })).body.status).toBe('processed');
  });

  it('invalid_recipients when no recipient is valid', async () => {
    for (const to of [[], 'bad id with spaces', [{ firstName: 'no id' }], [{ type: 'Topic' }], 42]) {
      const res = await trigger({ name: identifier, to });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('invalid_recipients');
      expect(res.body.error.length).toBeGreaterThan(0);
    }
  });

  it('processed: stores the event, generates a transactionId and fans out', async () => {
    const res = await trigger({ name: identifier, to: 'sub-processed', payload: { a: 1 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ acknowledged: true, status: 'processed', transactionId: expect.any(String) });
    const [row] = await t.db
      .select()
      .from(triggerEvents)
      .where(eq(triggerEvents.transactionId, res.body.transactionId));
    expect(row.request).toMatchObject({ name: identifier, to: 'sub-processed', payload: { a: 1 } });
    await waitFor(
      async () =>
        (await t.db.select().from(notifications).where(eq(notifications.transactionId, res.body.transactionId)))
          .length === 1,
      {
        description: 'the notification',
      },
    );
  });

  it('a repeated transactionId is processed again with the same id and creates nothing new', async () => {
    const body = { name: identifier, to: ['dup-a', 'dup-b'], transactionId: 'txn-repeat' };
    const first = await trigger(body);
    const second = await trigger(body);
    expect(second.status).toBe(201);
    expect(second.body).toEqual({ acknowledged: true, status: 'processed', transactionId: 'txn-repeat' });
    expect(first.body).toEqual(second.body);
    const byTxn = eq(notifications.transactionId, 'txn-repeat');
    await waitFor(async () => (await t.db.select().from(notifications).where(byTxn)).length === 2, {
      description: 'notifications',
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await t.db.select().from(triggerEvents).where(eq(triggerEvents.transactionId, 'txn-repeat'))).length).toBe(
      1,
    );
    expect((await t.db.select().from(notifications).where(byTxn)).length).toBe(2);
    expect((await t.db.select().from(jobs).where(eq(jobs.transactionId, 'txn-repeat'))).length).toBe(2);
  });

  it('a transactionId used weeks ago, in an older partition of the events, is still a repeat', async () => {
    const threeWeeksAgo = new Date(Date.now() - 21 * 86_400_000);
    const day = threeWeeksAgo.toISOString().slice(0, 10);
    await t.db.execute(sql`SELECT activity_partitions_ensure('trigger_events', ${day}::date, ${day}::date)`);
    await t.db.insert(triggerEvents).values({
      id: uuidv7({ msecs: threeWeeksAgo.getTime() }),
      environmentId: t.environment.id,
      organizationId: t.environment.organizationId,
      transactionId: 'txn-weeks-ago',
      workflowId,
      request: {},
      status: 'done',
      createdAt: threeWeeksAgo,
      updatedAt: threeWeeksAgo,
    });
    const repeat = await trigger({ name: identifier, to: 'weeks-ago-sub', transactionId: 'txn-weeks-ago' });
    expect(repeat.status).toBe(201);
    const rows = await t.db.execute<{ partition: string }>(
      sql`SELECT tableoid::regclass::text AS partition FROM trigger_events WHERE transaction_id = 'txn-weeks-ago'`,
    );
    expect(rows.rows).toEqual([{ partition: `trigger_events_p${partitionStart(threeWeeksAgo)}` }]);
  });

  it('concurrent triggers with one transactionId store one event', async () => {
    const body = { name: identifier, to: 'race-sub', transactionId: 'txn-race' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => trigger(body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    expect((await t.db.select().from(triggerEvents).where(eq(triggerEvents.transactionId, 'txn-race'))).length).toBe(1);
  });

  describe('bulk', () => {
    const bulk = (events: unknown) => t.api('post', '/v1/events/trigger/bulk').send({ events });

    it('answers each event in its slot, in input order; one unknown workflow does not fail the others', async () => {
      const res = await bulk([
        { name: identifier, to: 'bulk-1', transactionId: 'bulk-txn-1' },
        { name: 'unknown-workflow', to: 'bulk-2', transactionId: 'bulk-txn-2' },
        { name: identifier, to: 'bulk-3' },
        { to: 'bulk-4' },
        { name: identifier, to: [] },
      ]);
      expect(res.status).toBe(201);
      expect(res.body).toHaveLength(5);
      expect(res.body[0]).toEqual({ acknowledged: true, status: 'processed', transactionId: 'bulk-txn-1' });
      expect(res.body[1]).toEqual({
        acknowledged: true,
        status: 'error',
        error: ['workflow_not_found'],
        transactionId: 'bulk-txn-2',
      });
      expect(res.body[2]).toMatchObject({ acknowledged: true, status: 'processed', transactionId: expect.any(String) });
      expect(res.body[3]).toMatchObject({ acknowledged: true, status: 'error' });
      expect(res.body[3].error.join(' ')).toMatch(/name/);
      expect(res.body[4]).toMatchObject({ status: 'invalid_recipients' });
      const txns = [res.body[0].transactionId, res.body[2].transactionId];
      await waitFor(
        async () => {
          const rows = await t.db.select().from(notifications);
          return txns.every((txn) => rows.some((row) => row.transactionId === txn));
        },
        { description: 'both notifications' },
      );
    });

    it('stores each valid event as sent (nested payload, whitelisted fields) and answers a mistyped one with its field error', async () => {
      const payload = { order: { id: 'o-1', lines: [{ sku: 'a', qty: 2 }] }, note: 'ünïcode "quoted" \\ text' };
      const res = await bulk([
        {
          name: identifier,
          to: { subscriberId: 'bulk-5', email: 'b5@example.com' },
          payload,
          transactionId: 'bulk-txn-5',
          unknownField: 'dropped',
        },
        { name: identifier, to: 'bulk-6', payload: 'not-an-object', transactionId: 'bulk-txn-6' },
        { name: identifier, to: 'bulk-7', transactionId: 'bulk-txn-7', tenant: 42 },
      ]);
      expect(res.status).toBe(201);
      expect(res.body[0]).toEqual({ acknowledged: true, status: 'processed', transactionId: 'bulk-txn-5' });
      expect(res.body[1]).toMatchObject({ acknowledged: true, status: 'error', transactionId: 'bulk-txn-6' });
      expect(res.body[1].error.join(' ')).toMatch(/payload/);
      expect(res.body[2]).toMatchObject({ acknowledged: true, status: 'error', transactionId: 'bulk-txn-7' });
      expect(res.body[2].error.join(' ')).toMatch(/tenant/);

      const stored = await t.db.select().from(triggerEvents).where(eq(triggerEvents.environmentId, t.environment.id));
      const byTransaction = new Map(stored.map((row) => [row.transactionId, row]));
      expect(byTransaction.has('bulk-txn-6')).toBe(false);
      expect(byTransaction.has('bulk-txn-7')).toBe(false);
      const request = byTransaction.get('bulk-txn-5')!.request;
      expect(request).toMatchObject({
        name: identifier,
        to: { subscriberId: 'bulk-5', email: 'b5@example.com' },
        payload,
      });
      expect(request).not.toHaveProperty('unknownField');
    });

    it('rejects 0 or more than 100 events with 422', async () => {
      expect((await bulk([])).status).toBe(422);
      const res = await bulk(Array.from({ length: 101 }, () => ({ name: identifier, to: 'x' })));
      expect(res.status).toBe(422);
      expect(res.body.errors.events.messages[0]).toMatch(/no more than 100/);
      expect((await t.api('post', '/v1/events/trigger/bulk').send({})).status).toBe(422);
    });

    it('validates the envelope: events must be an array of objects; other top-level fields are ignored', async () => {
      const notArray = await t.api('post', '/v1/events/trigger/bulk').send({ events: 'x' });
      expect(notArray.status).toBe(422);
      expect(notArray.body.errors.events.messages.join(' ')).toMatch(/array/);
      const scalars = await bulk([{ name: identifier, to: 'bulk-8' }, 1, 'a']);
      expect(scalars.status).toBe(422);
      expect(scalars.body.errors.events.messages).toContain('each event must be an object');
      expect((await t.api('post', '/v1/events/trigger/bulk').send([{ name: identifier, to: 'bulk-9' }])).status).toBe(
        422,
      );
      const stored = await t.db.select().from(triggerEvents).where(eq(triggerEvents.environmentId, t.environment.id));
      expect(
        stored.filter((row) => ['bulk-8', 'bulk-9'].includes((row.request as { to: unknown }).to as string)),
      ).toEqual([]);

      const extra = await t
        .api('post', '/v1/events/trigger/bulk')
        .send({ events: [{ name: identifier, to: 'bulk-10', transactionId: 'bulk-txn-10' }], extra: true });
      expect(extra.status).toBe(201);
      expect(extra.body).toEqual([{ acknowledged: true, status: 'processed', transactionId: 'bulk-txn-10' }]);
    });
  });

  it('DELETE /v1/events/trigger/{transactionId} cancels waiting jobs (true), then finds nothing (false)', async () => {
    const delayed = await createWorkflow(t, {
      steps: [step({ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }), inApp()],
    });
    await trigger({ name: delayed.identifier, to: 'cancel-me', transactionId: 'txn-cancel' }).expect(201);
    const byTxn = eq(jobs.transactionId, 'txn-cancel');
    await waitFor(async () => (await t.db.select().from(jobs).where(byTxn)).some((job) => job.status === 'delayed'), {
      description: 'the delay to start',
    });
    const res = await t.api('delete', '/v1/events/trigger/txn-cancel');
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    const rows = await t.db.select().from(jobs).where(byTxn);
    expect(rows.map((job) => job.status).sort()).toEqual(['canceled', 'canceled']);
    expect((await t.api('delete', '/v1/events/trigger/txn-cancel')).body).toBe(false);
    expect((await t.api('delete', '/v1/events/trigger/never-seen')).body).toBe(false);
  });
});
