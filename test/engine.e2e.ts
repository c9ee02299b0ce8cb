import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TERMINAL_JOB_STATUSES } from '#common';
import { SubscriberRepository } from '#dal';
import {
  createWorkflow,
  detailsOf,
  inApp,
  jobsOf,
  messagesOf,
  step,
  triggerAndSettle,
} from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

describe('workflow engine: fan-out, in_app, filters, preferences, schedule', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('one subscriber with an in_app step: exactly one rendered message, job completed, details recorded', async () => {
    const workflow = await createWorkflow(t, {
      steps: [inApp('Hi {{subscriber.firstName}}, {{payload.count}} new from {{actor.firstName}}')],
    });
    const { transactionId, jobs } = await triggerAndSettle(t, {
      name: workflow.identifier,
      to: { subscriberId: 'alice', firstName: 'Alice' },
      actor: { subscriberId: 'bob', firstName: 'Bob' },
      payload: { count: 3 },
    });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'completed', type: 'in_app' });
    const messages = await messagesOf(t, transactionId);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      channel: 'in_app',
      status: 'sent',
      content: 'Hi Alice, 3 new from Bob',
      read: false,
      seen: false,
    });
    const details = await detailsOf(t, jobs[0].id);
    expect(details.map((detail) => [detail.status, detail.detail])).toContainEqual(['Success', 'Message created']);
    const alice = await t.app.get(SubscriberRepository).findBySubscriberId(t.environment.id, 'alice');
    expect(alice?.firstName).toBe('Alice');
    expect(messages[0].subscriberId).toBe(alice!.id);
  });

  describe('step filters', () => {
    const filtered = (operator: string, value: string, isNegated = false) =>
      inApp('filtered', {
        filters: [
          { isNegated, type: 'GROUP', value: 'AND', children: [{ on: 'payload', field: 'plan', operator, value }] },
        ],
      });

    it('runs the step when the filter passes, cancels it with a detail when it does not', async () => {
      const workflow = await createWorkflow(t, { steps: [filtered('EQUAL', 'pro'), inApp('always')] });
      const pass = await triggerAndSettle(t, { name: workflow.identifier, to: 'filter-sub', payload: { plan: 'pro' } });
      expect(pass.jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
      const skip = await triggerAndSettle(t, {
        name: workflow.identifier,
        to: 'filter-sub',
        payload: { plan: 'free' },
      });
      expect(skip.jobs.map((job) => job.status)).toEqual(['canceled', 'completed']);
      const [detail] = await detailsOf(t, skip.jobs[0].id);
      expect(detail.detail).toMatch(/^Step was skipped based on steps conditions/);
      expect((await messagesOf(t, skip.transactionId)).map((message) => message.content)).toEqual(['always']);
    });

    it('honours isNegated and list operators', async () => {
      const workflow = await createWorkflow(t, { steps: [filtered('IN', 'pro,enterprise', true)] });
      expect(
        (await triggerAndSettle(t, { name: workflow.identifier, to: 'filter-sub', payload: { plan: 'pro' } })).jobs[0]
          .status,
      ).toBe('canceled');
      expect(
        (await triggerAndSettle(t, { name: workflow.identifier, to: 'filter-sub', payload: { plan: 'free' } })).jobs[0]
          .status,
      ).toBe('completed');
    });
  });

  describe('preferences at send time', () => {
    it('a disabled channel cancels the step; a critical workflow still sends', async () => {
      const normal = await createWorkflow(t, { steps: [inApp('normal')] });
      const critical = await createWorkflow(t, { steps: [inApp('critical')], critical: true });
      await triggerAndSettle(t, { name: normal.identifier, to: 'pref-sub' });
      const patched = await t
        .api('patch', '/v2/subscribers/pref-sub/preferences')
        .send({ channels: { in_app: false } });
      expect(patched.status).toBe(200);
      const skipped = await triggerAndSettle(t, { name: normal.identifier, to: 'pref-sub' });
      expect(skipped.jobs[0].status).toBe('canceled');
      expect((await detailsOf(t, skipped.jobs[0].id))[0].detail).toMatch(/preferences/);
      expect(await messagesOf(t, skipped.transactionId)).toHaveLength(0);
      const sent = await triggerAndSettle(t, { name: critical.identifier, to: 'pref-sub' });
      expect(sent.jobs[0].status).toBe('completed');
      expect(await messagesOf(t, sent.transactionId)).toHaveLength(1);
    });
  });

  describe('shouldStopOnFail and template errors', () => {
    it('a render error fails the step with a clear detail; shouldStopOnFail cancels the rest', async () => {
      const workflow = await createWorkflow(t, {
        steps: [inApp('{% if %}', { shouldStopOnFail: true }), inApp('never')],
      });
      const { jobs } = await triggerAndSettle(t, { name: workflow.identifier, to: 'stop-sub' });
      expect(jobs.map((job) => job.status)).toEqual(['failed', 'canceled']);
      expect((await detailsOf(t, jobs[0].id)).map((detail) => detail.detail).join(' ')).toMatch(
        /could not be rendered/,
      );
      expect((await detailsOf(t, jobs[1].id))[0].detail).toMatch(/stops the workflow/);
    });

    it('without shouldStopOnFail the next step still runs; inactive steps are skipped', async () => {
      const workflow = await createWorkflow(t, {
        steps: [inApp('{% if %}'), inApp('off', { active: false }), inApp('next')],
      });
      const { jobs, transactionId } = await triggerAndSettle(t, { name: workflow.identifier, to: 'stop-sub' });
      expect(jobs.map((job) => job.status)).toEqual(['failed', 'skipped', 'completed']);
      expect((await messagesOf(t, transactionId)).map((message) => message.content)).toEqual(['next']);
    });
  });

  describe('schedule', () => {
    it('holds an email outside the subscriber schedule and releases it when the slot opens', async () => {
      const sunday = new Date('2030-01-06T12:00:00Z'); // a Sunday
      t.clock.set(sunday);
      try {
        const workflow = await createWorkflow(t, {
          steps: [step({ template: { type: 'email', subject: 'Hi', content: 'Body' } })],
        });
        await triggerAndSettle(
          t,
          { name: workflow.identifier, to: { subscriberId: 'sched-sub', email: 'sched@example.com' } },
          (rows) => rows.length > 0,
        );
        const schedule = {
          isEnabled: true,
          weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } },
        };
        expect((await t.api('patch', '/v2/subscribers/sched-sub/preferences').send({ schedule })).status).toBe(200);
        const held = await triggerAndSettle(
          t,
          { name: workflow.identifier, to: 'sched-sub' },
          (rows) => rows[0]?.status === 'delayed',
        );
        expect(held.jobs[0].runAt?.toISOString()).toBe('2030-01-07T09:00:00.000Z');
        expect((await detailsOf(t, held.jobs[0].id))[0]).toMatchObject({ status: 'Pending' });
        t.clock.set(new Date('2030-01-07T09:30:00Z'));
        // No email integration: once released the step runs and fails for want of one, which proves the release.
        await waitFor(
          async () => TERMINAL_JOB_STATUSES.includes((await jobsOf(t, held.transactionId))[0].status as never),
          {
            timeoutMs: 20_000,
            description: 'release',
          },
        );
        const [released] = await jobsOf(t, held.transactionId);
        expect(released.status).toBe('failed');
        expect((await detailsOf(t, released.id)).map((detail) => detail.detail).join(' ')).toMatch(
          /no active email integration/,
        );
      } finally {
        t.clock.reset();
      }
    }, 40_000);
  });
});
