import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SubscriberRepository } from '#dal';
import { createWorkflow, detailsOf, inApp, jobsOf, messagesOf, step } from '../support/engine-fixtures.js';
import { startEngine, type Engine } from './support/engine-harness.js';
import { updatePreferences } from './support/engine-seeds.js';

describe('workflow engine: fan-out, in_app, filters, preferences, schedule', () => {
  let e: Engine;
  beforeAll(async () => {
    // The schedule test's release is the recovery sweeper's (see there): it sweeps every grace.
    e = await startEngine({ RECOVERY_GRACE_SECONDS: '1' });
  });
  afterAll(async () => {
    await e?.close();
  });

  it('one subscriber with an in_app step: exactly one rendered message, job completed, details recorded', async () => {
    const workflow = await createWorkflow(e, {
      steps: [inApp('Hi {{subscriber.firstName}}, {{payload.count}} new from {{actor.firstName}}')],
    });
    const { transactionId, jobs } = await e.triggerAndSettle({
      name: workflow.identifier,
      to: { subscriberId: 'alice', firstName: 'Alice' },
      actor: { subscriberId: 'bob', firstName: 'Bob' },
      payload: { count: 3 },
    });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'completed', type: 'in_app' });
    const messages = await messagesOf(e, transactionId);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      channel: 'in_app',
      status: 'sent',
      content: 'Hi Alice, 3 new from Bob',
      read: false,
      seen: false,
    });
    const details = await detailsOf(e, jobs[0].id);
    expect(details.map((detail) => [detail.status, detail.detail])).toContainEqual(['Success', 'Message created']);
    const alice = await e.app.get(SubscriberRepository).findBySubscriberId(e.environment.id, 'alice');
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
      const workflow = await createWorkflow(e, { steps: [filtered('EQUAL', 'pro'), inApp('always')] });
      const pass = await e.triggerAndSettle({ name: workflow.identifier, to: 'filter-sub', payload: { plan: 'pro' } });
      expect(pass.jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
      const skip = await e.triggerAndSettle({ name: workflow.identifier, to: 'filter-sub', payload: { plan: 'free' } });
      expect(skip.jobs.map((job) => job.status)).toEqual(['canceled', 'completed']);
      const [detail] = await detailsOf(e, skip.jobs[0].id);
      expect(detail.detail).toMatch(/^Step was skipped based on steps conditions/);
      expect((await messagesOf(e, skip.transactionId)).map((message) => message.content)).toEqual(['always']);
    });

    it('honours isNegated and list operators', async () => {
      const workflow = await createWorkflow(e, { steps: [filtered('IN', 'pro,enterprise', true)] });
      const run = async (plan: string) =>
        (await e.triggerAndSettle({ name: workflow.identifier, to: 'filter-sub', payload: { plan } })).jobs[0].status;
      expect(await run('pro')).toBe('canceled');
      expect(await run('free')).toBe('completed');
    });
  });

  describe('preferences at send time', () => {
    it('a disabled channel cancels the step; a critical workflow still sends', async () => {
      const normal = await createWorkflow(e, { steps: [inApp('normal')] });
      const critical = await createWorkflow(e, { steps: [inApp('critical')], critical: true });
      await e.triggerAndSettle({ name: normal.identifier, to: 'pref-sub' });
      await updatePreferences(e, 'pref-sub', { channels: { in_app: false } });
      const skipped = await e.triggerAndSettle({ name: normal.identifier, to: 'pref-sub' });
      expect(skipped.jobs[0].status).toBe('canceled');
      expect((await detailsOf(e, skipped.jobs[0].id))[0].detail).toMatch(/preferences/);
      expect(await messagesOf(e, skipped.transactionId)).toHaveLength(0);
      const sent = await e.triggerAndSettle({ name: critical.identifier, to: 'pref-sub' });
      expect(sent.jobs[0].status).toBe('completed');
      expect(await messagesOf(e, sent.transactionId)).toHaveLength(1);
    });
  });

  describe('shouldStopOnFail and template errors', () => {
    it('a render error fails the step with a clear detail; shouldStopOnFail cancels the rest', async () => {
      const workflow = await createWorkflow(e, {
        steps: [inApp('{% if %}', { shouldStopOnFail: true }), inApp('never')],
      });
      const { jobs } = await e.triggerAndSettle({ name: workflow.identifier, to: 'stop-sub' });
      expect(jobs.map((job) => job.status)).toEqual(['failed', 'canceled']);
      expect((await detailsOf(e, jobs[0].id)).map((detail) => detail.detail).join(' ')).toMatch(
        /could not be rendered/,
      );
      expect((await detailsOf(e, jobs[1].id))[0].detail).toMatch(/stops the workflow/);
    });

    it('without shouldStopOnFail the next step still runs; inactive steps are skipped', async () => {
      const workflow = await createWorkflow(e, {
        steps: [inApp('{% if %}'), inApp('off', { active: false }), inApp('next')],
      });
      const { jobs, transactionId } = await e.triggerAndSettle({ name: workflow.identifier, to: 'stop-sub' });
      expect(jobs.map((job) => job.status)).toEqual(['failed', 'skipped', 'completed']);
      expect((await messagesOf(e, transactionId)).map((message) => message.content)).toEqual(['next']);
    });
  });

  describe('schedule', () => {
    it('holds an email outside the subscriber schedule and releases it when the slot opens', async () => {
      const sunday = new Date('2030-01-06T12:00:00Z'); // a Sunday
      e.clock.set(sunday);
      try {
        const workflow = await createWorkflow(e, {
          steps: [step({ template: { type: 'email', subject: 'Hi', content: 'Body' } })],
        });
        await e.triggerAndSettle(
          { name: workflow.identifier, to: { subscriberId: 'sched-sub', email: 'sched@example.com' } },
          { until: (jobs) => jobs.length > 0 },
        );
        const schedule = {
          isEnabled: true,
          weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } },
        };
        await updatePreferences(e, 'sched-sub', { schedule });
        const held = await e.triggerAndSettle(
          { name: workflow.identifier, to: 'sched-sub' },
          { until: (jobs) => jobs[0]?.status === 'delayed' },
        );
        expect(held.jobs[0].runAt?.toISOString()).toBe('2030-01-07T09:00:00.000Z');
        expect((await detailsOf(e, held.jobs[0].id))[0]).toMatchObject({ status: 'Pending' });
        e.clock.set(new Date('2030-01-07T09:30:00Z'));
        // Its queue entry is due in a day of real time: the recovery sweeper releases the overdue row.
        // No email integration: once released the step runs and fails for want of one, which proves the release.
        await e.settled(held.transactionId, { timeoutMs: 20_000 });
        const [released] = await jobsOf(e, held.transactionId);
        expect(released.status).toBe('failed');
        expect((await detailsOf(e, released.id)).map((detail) => detail.detail).join(' ')).toMatch(
          /no active email integration/,
        );
      } finally {
        e.clock.reset();
      }
    }, 40_000);
  });
});
