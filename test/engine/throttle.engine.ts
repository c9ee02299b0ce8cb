import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { JobRow } from '#dal';
import { detailsOf, jobsOf, messagesOf } from '../support/engine-fixtures.js';
import { startEngine, type Engine } from './support/engine-harness.js';
import { listNotifications, saveWorkflow } from './support/engine-seeds.js';

const THROTTLED_RUN = 'Step skipped: the run was throttled by an earlier throttle step';

describe('workflow engine: throttle steps', () => {
  let e: Engine;
  beforeAll(async () => {
    e = await startEngine();
  });
  afterAll(async () => {
    e?.clock.reset();
    await e?.close();
  });

  let workflowCount = 0;
  /** A workflow saved through the API's use case: a throttle with `metadata`, then an in_app step. */
  const throttledWorkflow = async (metadata: Record<string, unknown>): Promise<string> => {
    const identifier = `throttle-${++workflowCount}`;
    await saveWorkflow(e, {
      name: identifier,
      identifier,
      steps: [
        { template: { type: 'throttle' }, metadata },
        { template: { type: 'in_app', content: 'hello {{payload.n}}' } },
      ],
    });
    return identifier;
  };
  const run = (name: string, to: string, payload: Record<string, unknown> = {}) =>
    e.triggerAndSettle({ name, to, payload });
  const texts = async (job: JobRow) => (await detailsOf(e, job.id)).map((detail) => [detail.status, detail.detail]);

  it('threshold 1 per hour: of three triggers to one subscriber one delivers; the others end skipped, with why', async () => {
    const name = await throttledWorkflow({ type: 'fixed', amount: 1, unit: 'hours', threshold: 1 });
    const runs = [await run(name, 'ada', { n: 1 }), await run(name, 'ada', { n: 2 }), await run(name, 'ada', { n: 3 })];
    expect(runs.map(({ jobs }) => jobs.map((job) => job.status))).toEqual([
      ['completed', 'completed'],
      ['skipped', 'skipped'],
      ['skipped', 'skipped'],
    ]);
    const messages = await Promise.all(runs.map(({ transactionId }) => messagesOf(e, transactionId)));
    expect(messages.map((rows) => rows.map((message) => message.content))).toEqual([['hello 1'], [], []]);
    expect(await texts(runs[0].jobs[0])).toEqual([
      ['Success', 'Throttle passed: 0 of 1 runs in the last 1 hours had passed for this subscriber'],
    ]);
    for (const { jobs } of runs.slice(1)) {
      expect(await texts(jobs[0])).toEqual([
        [
          'Warning',
          'Throttled: 1 of 1 runs in the last 1 hours already passed for this subscriber; the following steps are skipped',
        ],
      ]);
      expect(await texts(jobs[1])).toEqual([['Warning', THROTTLED_RUN]]);
    }
    // GET /v1/notifications shows the same.
    const [listed] = await listNotifications(e, { transactionId: runs[1].transactionId });
    expect(listed.jobs.map((job: { status: string }) => job.status)).toEqual(['skipped', 'skipped']);

    // Another subscriber has a counter of its own.
    const other = await run(name, 'grace', { n: 4 });
    expect(other.jobs.map((job) => job.status)).toEqual(['completed', 'completed']);

    // Once the window has passed, the subscriber gets through again.
    e.clock.set(new Date(Date.now() + 61 * 60_000));
    try {
      const later = await run(name, 'ada', { n: 5 });
      expect(later.jobs.map((job) => job.status)).toEqual(['completed', 'completed']);
    } finally {
      e.clock.reset();
    }
  });

  it('a throttleKey gives each payload value its own counter', async () => {
    const name = await throttledWorkflow({ type: 'fixed', amount: 1, unit: 'days', throttleKey: 'project.id' });
    const statuses = [];
    for (const project of ['a', 'a', 'b', 'b', 'a'])
      statuses.push((await run(name, 'ada', { project: { id: project } })).jobs[0].status);
    expect(statuses).toEqual(['completed', 'skipped', 'completed', 'skipped', 'skipped']);
  });

  it('dynamic: the window comes from the payload at dynamicKey; a missing or bad window fails the run', async () => {
    const name = await throttledWorkflow({ type: 'dynamic', dynamicKey: 'throttle.window', threshold: 2 });
    const window = { amount: 30, unit: 'minutes' };
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await run(name, 'ada', { throttle: { window } })).jobs[0].status);
    expect(statuses).toEqual(['completed', 'completed', 'skipped']);
    const throttled = await run(name, 'ada', { throttle: { window } });
    expect(await texts(throttled.jobs[0])).toEqual([
      [
        'Warning',
        'Throttled: 2 of 2 runs in the last 30 minutes already passed for this subscriber; the following steps are skipped',
      ],
    ]);

    for (const bad of [undefined, { amount: 2, unit: 'fortnights' }, { amount: 200, unit: 'days' }, { amount: -1 }]) {
      const failed = await run(name, 'ada', { throttle: { window: bad } });
      expect(failed.jobs.map((job) => job.status)).toEqual(['failed', 'skipped']);
      expect(await texts(failed.jobs[0])).toEqual([
        ['Failed', expect.stringMatching(/^Invalid throttle window: payload\.throttle\.window /)],
      ]);
    }
  });

  it('concurrent triggers in one bulk request deliver exactly threshold messages', async () => {
    const name = await throttledWorkflow({ type: 'fixed', amount: 1, unit: 'hours', threshold: 2 });
    const events = Array.from({ length: 12 }, (_, n) => ({ name, to: 'bulk-sub', payload: { n } }));
    const transactionIds = (await e.triggerBulk(events)).map((item) => item.transactionId!);
    const settled = await e.settledAll(transactionIds, { timeoutMs: 30_000 });
    expect(settled.every((rows) => rows.length === 2)).toBe(true);
    const messages = (await Promise.all(transactionIds.map((id) => messagesOf(e, id)))).flat();
    expect(messages).toHaveLength(2);
    const throttleJobs = (await Promise.all(transactionIds.map((id) => jobsOf(e, id)))).map((rows) => rows[0].status);
    expect(throttleJobs.filter((status) => status === 'completed')).toHaveLength(2);
    expect(throttleJobs.filter((status) => status === 'skipped')).toHaveLength(10);
  }, 45_000);
});
