import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq, sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { newId } from '#common';
import {
  ActivityPartitionRepository,
  MaintenanceStatusRepository,
  WorkflowRepository,
  jobs,
  messages,
  triggerEvents,
  type MaintenanceStatusRow,
} from '#dal';
import { MAINTENANCE_LOCK_KEY, MaintenanceRun } from '#event-processing';
import {
  createWorkflow,
  inApp,
  jobsOf,
  step,
  triggerAndSettle,
  triggerWithKeyAndSettle,
} from './support/engine-fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait.js';

const delay = (seconds: number) =>
  step({ template: { type: 'delay' }, metadata: { type: 'regular', amount: seconds, unit: 'seconds' } });
const digest = (hours: number) =>
  step({ template: { type: 'digest' }, metadata: { type: 'regular', amount: hours, unit: 'hours' } });

type Table = 'trigger_events' | 'notifications' | 'jobs' | 'execution_details' | 'messages';
const ACTIVITY: Table[] = ['trigger_events', 'notifications', 'jobs', 'execution_details'];
const EVERYTHING: Table[] = [...ACTIVITY, 'messages'];

/** The rows of one transaction, by table. */
async function rowsOf(t: TestApp, transactionId: string): Promise<Record<Table, number>> {
  const result = await t.db.execute<Record<Table, number>>(sql`
    SELECT
      (SELECT count(*) FROM trigger_events WHERE transaction_id = ${transactionId})::int AS trigger_events,
      (SELECT count(*) FROM notifications WHERE transaction_id = ${transactionId})::int AS notifications,
      (SELECT count(*) FROM jobs WHERE transaction_id = ${transactionId})::int AS jobs,
      (SELECT count(*) FROM execution_details WHERE notification_id IN
        (SELECT id FROM notifications WHERE transaction_id = ${transactionId}))::int AS execution_details,
      (SELECT count(*) FROM messages WHERE transaction_id = ${transactionId})::int AS messages`);
  return result.rows[0];
}

/** Dates the transaction's rows `days` back (their created_at only: the recovery sweeper reads updated_at). */
async function age(t: TestApp, transactionId: string, days: number, tables: Table[] = EVERYTHING): Promise<void> {
  const at = sql`now() - make_interval(days => ${days})`;
  for (const table of tables) {
    const rows =
      table === 'execution_details'
        ? sql`notification_id IN (SELECT id FROM notifications WHERE transaction_id = ${transactionId})`
        : sql`transaction_id = ${transactionId}`;
    await t.db.execute(sql`UPDATE ${sql.identifier(table)} SET created_at = ${at} WHERE ${rows}`);
  }
}

/**
 * Moves rows into the partition of `days` back, as if written then: their UUIDv7 ids and the
 * columns naming such ids get the time `days` earlier (the rest of each id kept), created_at too.
 */
async function backdate(t: TestApp, table: Table, where: SQL, idColumns: string[], days: number): Promise<void> {
  const shifted = (column: string) => {
    const hex = sql`replace(${sql.identifier(column)}::text, '-', '')`;
    const msecs = sql`('x' || substr(${hex}, 1, 12))::bit(48)::bigint - ${days * 86_400_000}`;
    return sql`${sql.identifier(column)} = (lpad(to_hex(${msecs}), 12, '0') || substr(${hex}, 13))::uuid`;
  };
  await t.db.execute(sql`
    UPDATE ${sql.identifier(table)} SET ${sql.join(idColumns.map(shifted), sql`, `)},
      created_at = created_at - make_interval(days => ${days})
    WHERE ${where}`);
}

/** The partitions (or the default partition) that hold the transaction's rows of `table`. */
async function partitionsOf(t: TestApp, table: Table, transactionId: string): Promise<string[]> {
  const result = await t.db.execute<{ partition: string }>(sql`
    SELECT DISTINCT tableoid::regclass::text AS partition FROM ${sql.identifier(table)}
    WHERE transaction_id = ${transactionId}`);
  return result.rows.map((row) => row.partition);
}

const nothingLeft = { trigger_events: 0, notifications: 0, jobs: 0, execution_details: 0, messages: 0 };

describe('retention: the maintenance job', () => {
  let t: TestApp;
  let run: () => ReturnType<MaintenanceRun['run']>;
  let status: () => Promise<MaintenanceStatusRow>;
  let productionKey = '';
  let productionId = '';

  beforeAll(async () => {
    t = await startTestApp();
    const maintenance = t.app.get(MaintenanceRun);
    run = () => maintenance.run();
    status = async () => (await t.app.get(MaintenanceStatusRepository).find('maintenance'))!;
    ({
      apiKey: productionKey,
      environment: { id: productionId },
    } = await t.createKeyFor('Production'));
    // Every worker registers the job's scheduler at boot, and the first run follows at once.
    await waitFor(
      async () => ((await t.app.get(MaintenanceStatusRepository).find('maintenance'))?.succeeded ?? 0) > 0,
      {
        description: 'the first scheduled maintenance run',
      },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One delivered in_app message, in Development or (with its key) Production. */
  const deliver = async (to: string, production = false) => {
    if (!production) {
      const workflow = await createWorkflow(t, { steps: [inApp('kept or not')] });
      return triggerAndSettle(t, { name: workflow.identifier, to });
    }
    const workflows = t.app.get(WorkflowRepository);
    const scope = { environmentId: productionId, organizationId: t.environment.organizationId };
    const identifier = `ret-${newId().slice(-12)}`;
    await workflows.create(scope, {
      identifier,
      name: identifier,
      active: true,
      critical: false,
      preferenceSettings: {},
      steps: [inApp('kept or not')],
      notificationGroupId: (await workflows.findOrCreateGroup(scope, 'General')).id,
    });
    return triggerWithKeyAndSettle(t, productionKey, { name: identifier, to });
  };

  it('registers one scheduler on the system queue, every MAINTENANCE_INTERVAL_MINUTES (60 by default)', async () => {
    const scheduler = await t.queue.queue('system').getJobScheduler('maintenance');
    expect(Number(scheduler?.every)).toBe(60 * 60_000);
  });

  it("removes activity past 30 days and messages past 90, keeps younger rows, and Production's longer override set through the API", async () => {
    const override = await t
      .api('put', `/v1/environments/${productionId}`)
      .send({ retention: { activityDays: 365, messagesDays: 365 } });
    expect(override.status).toBe(200);
    expect(override.body.retention).toEqual({
      activityDays: 365,
      messagesDays: 365,
      activityDaysOverride: 365,
      messagesDaysOverride: 365,
    });

    const pastActivity = (await deliver('ret-40-days')).transactionId;
    const pastBoth = (await deliver('ret-100-days')).transactionId;
    const young = (await deliver('ret-young')).transactionId;
    const production = (await deliver('ret-production', true)).transactionId;
    await age(t, pastActivity, 40);
    await age(t, pastBoth, 100);
    await age(t, production, 100);
    const before = await rowsOf(t, young);
    expect(before).toMatchObject({ trigger_events: 1, notifications: 1, jobs: 1, messages: 1 });
    expect(before.execution_details).toBeGreaterThan(0);

    const report = await run();

    expect(report.outcome).toBe('succeeded');
    expect(await rowsOf(t, pastActivity)).toEqual({ ...nothingLeft, messages: 1 });
    expect(await rowsOf(t, pastBoth)).toEqual(nothingLeft);
    expect(await rowsOf(t, young)).toEqual(before);
    expect(await rowsOf(t, production)).toEqual(before);
    expect(report.removed).toMatchObject({
      trigger_events: 2,
      notifications: 2,
      jobs: 2,
      execution_details: 2 * before.execution_details,
      messages: 1,
    });
  });

  it('an override set back to null (the default) applies at the next run', async () => {
    const production = (await deliver('ret-production-default', true)).transactionId;
    await age(t, production, 40);
    await run();
    expect((await rowsOf(t, production)).notifications).toBe(1);

    const cleared = await t.api('put', `/v1/environments/${productionId}`).send({ retention: { activityDays: null } });
    expect(cleared.body.retention).toMatchObject({ activityDays: 30, activityDaysOverride: null, messagesDays: 365 });
    await run();
    expect(await rowsOf(t, production)).toEqual({ ...nothingLeft, messages: 1 });
  });

  it('keeps a delayed job past the retention, with what it needs; it then runs and delivers', async () => {
    const workflow = await createWorkflow(t, { steps: [delay(5), inApp('after the delay')] });
    const res = await t.api('post', '/v1/events/trigger').send({ name: workflow.identifier, to: 'ret-delayed' });
    const transactionId = res.body.transactionId as string;
    await waitFor(async () => (await jobsOf(t, transactionId))[0]?.status === 'delayed', {
      description: 'the delay to start',
    });
    await age(t, transactionId, 400);
    const waiting = await rowsOf(t, transactionId);

    const report = await run();

    expect(report.outcome).toBe('succeeded');
    expect(await rowsOf(t, transactionId)).toEqual(waiting);
    await waitFor(async () => (await rowsOf(t, transactionId)).messages === 1, {
      timeoutMs: 15_000,
      description: 'the delayed message',
    });
    const [message] = await t.db.select().from(messages).where(eq(messages.transactionId, transactionId));
    expect(message.content).toBe('after the delay');
    await waitFor(async () => (await jobsOf(t, transactionId)).every((job) => job.status === 'completed'));

    // Finished, its activity is past the retention; its message is new.
    await run();
    expect(await rowsOf(t, transactionId)).toEqual({ ...nothingLeft, messages: 1 });
  });

  it("drops a week's partitions past the retention; the pending work they hold is kept and still delivers", async () => {
    const DAYS = 45;
    const day = new Date(Date.now() - DAYS * 86_400_000);
    // Partitions are named after the Monday (UTC) their week starts on.
    const epochDay = Math.floor(day.getTime() / 86_400_000);
    const monday = new Date((epochDay - ((epochDay - 4) % 7)) * 86_400_000);
    const weekName = monday.toISOString().slice(0, 10).replace(/-/g, '');
    // The day before too: a row written just after midnight moves to it.
    await t.app.get(ActivityPartitionRepository).ensure(new Date(day.getTime() - 86_400_000), day);

    const done = (await deliver('ret-partition-done')).transactionId;
    const inTransaction = (transactionId: string) => sql`transaction_id = ${transactionId}`;
    const ofNotifications = (transactionId: string) =>
      sql`notification_id IN (SELECT id FROM notifications WHERE transaction_id = ${transactionId})`;
    await backdate(t, 'execution_details', ofNotifications(done), ['id', 'job_id', 'notification_id'], DAYS);
    await backdate(t, 'messages', inTransaction(done), ['id', 'job_id', 'notification_id'], DAYS);
    await backdate(t, 'jobs', inTransaction(done), ['id', 'notification_id'], DAYS);
    await backdate(t, 'notifications', inTransaction(done), ['id', 'event_id'], DAYS);
    await backdate(t, 'trigger_events', inTransaction(done), ['id'], DAYS);
    // The week's trigger events go with their partition, by their ids, whatever their creation times:
    // this one's id is in the dropped week, its created_at today's.
    const byId = (await deliver('ret-partition-by-id')).transactionId;
    await backdate(t, 'execution_details', ofNotifications(byId), ['id', 'job_id', 'notification_id'], DAYS);
    await backdate(t, 'messages', inTransaction(byId), ['id', 'job_id', 'notification_id'], DAYS);
    await backdate(t, 'jobs', inTransaction(byId), ['id', 'notification_id'], DAYS);
    await backdate(t, 'notifications', inTransaction(byId), ['id', 'event_id'], DAYS);
    await backdate(t, 'trigger_events', inTransaction(byId), ['id'], DAYS);
    await t.db.execute(sql`UPDATE trigger_events SET created_at = now() WHERE ${inTransaction(byId)}`);
    // Rows of the dropped week written since the cutoff (a late fan-out, a late message): they stay.
    const late = (await deliver('ret-partition-late')).transactionId;
    await backdate(t, 'execution_details', ofNotifications(late), ['id', 'job_id', 'notification_id'], DAYS);
    await backdate(t, 'messages', inTransaction(late), ['id', 'job_id', 'notification_id'], DAYS);
    await backdate(t, 'jobs', inTransaction(late), ['id', 'notification_id'], DAYS);
    await backdate(t, 'notifications', inTransaction(late), ['id', 'event_id'], DAYS);
    await backdate(t, 'trigger_events', inTransaction(late), ['id'], DAYS);
    for (const table of ['notifications', 'messages'] as const)
      await t.db.execute(sql`UPDATE ${sql.identifier(table)} SET created_at = now() WHERE ${inTransaction(late)}`);
    const lateRows = await rowsOf(t, late);
    // An event whose fan-out has not run (lost, waiting for the recovery sweeper) is pending work too.
    const unsent = 'ret-partition-unsent';
    await t.db.insert(triggerEvents).values({
      id: newId(),
      environmentId: t.environment.id,
      organizationId: t.environment.organizationId,
      transactionId: unsent,
      workflowId: (await createWorkflow(t, { steps: [inApp('never fanned out')] })).id,
      request: {},
      status: 'received',
    });
    await backdate(t, 'trigger_events', inTransaction(unsent), ['id'], DAYS);

    // A delay waiting to run, and the in_app step after it. The delay job keeps its id (its queue
    // entry names it); everything else of the notification moves to the old day.
    const workflow = await createWorkflow(t, { steps: [delay(5), inApp('after the delay, from a dropped day')] });
    const res = await t
      .api('post', '/v1/events/trigger')
      .send({ name: workflow.identifier, to: 'ret-partition-delayed' });
    const delayed = res.body.transactionId as string;
    await waitFor(async () => (await jobsOf(t, delayed))[0]?.status === 'delayed', {
      description: 'the delay to start',
    });
    await backdate(t, 'execution_details', ofNotifications(delayed), ['id', 'notification_id'], DAYS);
    await backdate(t, 'jobs', sql`${inTransaction(delayed)} AND step_index = 1`, ['id', 'notification_id'], DAYS);
    await backdate(t, 'jobs', sql`${inTransaction(delayed)} AND step_index = 0`, ['notification_id'], DAYS);
    await backdate(t, 'notifications', inTransaction(delayed), ['id', 'event_id'], DAYS);
    await backdate(t, 'trigger_events', inTransaction(delayed), ['id'], DAYS);
    for (const table of ['notifications', 'jobs', 'messages'] as const)
      expect((await partitionsOf(t, table, done)).every((name) => name.startsWith(`${table}_p`))).toBe(true);
    expect(await partitionsOf(t, 'notifications', delayed)).toEqual([expect.stringMatching(/^notifications_p\d{8}$/)]);
    const waiting = await rowsOf(t, delayed);

    const report = await run();

    expect(report.outcome).toBe('succeeded');
    const exists = await t.db.execute<{
      notifications: string | null;
      events: string | null;
      messages: string | null;
    }>(sql`
      SELECT to_regclass(${`notifications_p${weekName}`})::text AS notifications,
        to_regclass(${`trigger_events_p${weekName}`})::text AS events,
        to_regclass(${`messages_p${weekName}`})::text AS messages`);
    // Activity is kept 30 days, messages 90: the week's activity partitions are gone, its messages' stays.
    expect(exists.rows[0]).toEqual({ notifications: null, events: null, messages: `messages_p${weekName}` });
    expect(await rowsOf(t, done)).toEqual({ ...nothingLeft, messages: 1 });
    expect(await rowsOf(t, byId)).toEqual({ ...nothingLeft, messages: 1 });
    expect(await partitionsOf(t, 'trigger_events', unsent)).toEqual(['trigger_events_default']);
    expect(await rowsOf(t, late)).toEqual(lateRows);
    expect(await partitionsOf(t, 'notifications', late)).toEqual(['notifications_default']);
    expect(await rowsOf(t, delayed)).toEqual(waiting);
    expect(await partitionsOf(t, 'notifications', delayed)).toEqual(['notifications_default']);
    expect(report.removed.notifications).toBeGreaterThanOrEqual(1);

    await waitFor(async () => (await rowsOf(t, delayed)).messages === 1, {
      timeoutMs: 15_000,
      description: 'the delayed message',
    });
    const [message] = await t.db.select().from(messages).where(eq(messages.transactionId, delayed));
    expect(message.content).toBe('after the delay, from a dropped day');
    await waitFor(async () => (await jobsOf(t, delayed)).every((job) => job.status === 'completed'));
  });

  it('keeps an open digest window and the events merged into it; once it is finished they go together', async () => {
    const workflow = await createWorkflow(t, { steps: [digest(1), inApp('digested')] });
    const trigger = async () => {
      const res = await t.api('post', '/v1/events/trigger').send({ name: workflow.identifier, to: 'ret-digest' });
      return res.body.transactionId as string;
    };
    const first = await trigger();
    await waitFor(async () => (await jobsOf(t, first))[0]?.status === 'delayed', { description: 'the window to open' });
    const second = await trigger();
    await waitFor(async () => (await jobsOf(t, second))[0]?.status === 'merged', { description: 'the merge' });
    await age(t, first, 400);
    await age(t, second, 400);

    await run();
    expect((await rowsOf(t, first)).notifications).toBe(1);
    expect((await rowsOf(t, second)).notifications).toBe(1);

    // The window closed and the digest was sent (as if an hour had passed).
    await t.db.update(jobs).set({ status: 'completed' }).where(eq(jobs.transactionId, first));
    const report = await run();
    expect(await rowsOf(t, first)).toEqual(nothingLeft);
    expect(await rowsOf(t, second)).toEqual(nothingLeft);
    expect(report.removed.notifications).toBe(2);
  });

  it('keeps a snoozed message and a finished job later runs still read (a throttle pass in its window)', async () => {
    const snoozed = (await deliver('ret-snoozed')).transactionId;
    const counted = (await deliver('ret-throttle')).transactionId;
    await t.db
      .update(messages)
      .set({ snoozedUntil: new Date(Date.now() + 3_600_000) })
      .where(eq(messages.transactionId, snoozed));
    const retainUntil = new Date(Date.now() + 3_600_000).toISOString();
    await t.db.update(jobs).set({ result: { retainUntil } }).where(eq(jobs.transactionId, counted));
    await age(t, snoozed, 400);
    await age(t, counted, 400);

    await run();

    expect((await rowsOf(t, snoozed)).messages).toBe(1);
    expect((await rowsOf(t, snoozed)).notifications).toBe(0);
    expect((await rowsOf(t, counted)).notifications).toBe(1);
    expect((await rowsOf(t, counted)).jobs).toBe(1);
  });

  it('a throttle pass and a backoff digest event carry the end of the window later runs read them in', async () => {
    const throttled = await createWorkflow(t, {
      steps: [
        step({ template: { type: 'throttle' }, metadata: { type: 'fixed', amount: 2, unit: 'hours', threshold: 5 } }),
        inApp('throttled'),
      ],
    });
    const [pass] = (await triggerAndSettle(t, { name: throttled.identifier, to: 'ret-window' })).jobs;
    expect(Date.parse(pass.result!.retainUntil!) - Date.parse(pass.result!.passedAt!)).toBe(2 * 3_600_000);

    const backoff = await createWorkflow(t, {
      steps: [
        step({
          template: { type: 'digest' },
          metadata: {
            type: 'backoff',
            amount: 1,
            unit: 'seconds',
            backoff: true,
            backoffAmount: 3,
            backoffUnit: 'hours',
          },
        }),
        inApp('digested'),
      ],
    });
    const [first] = (await triggerAndSettle(t, { name: backoff.identifier, to: 'ret-window' })).jobs;
    expect(first.status).toBe('skipped');
    expect(Date.parse(first.result!.retainUntil!) - first.createdAt.getTime()).toBe(3 * 3_600_000);
  });

  it('two runs at once: one does the work, the other is skipped; nothing is counted twice', async () => {
    const old = (await deliver('ret-concurrent')).transactionId;
    await age(t, old, 400);
    const totalsBefore = await status();

    const reports = await Promise.all([run(), run()]);

    expect(reports.map((report) => report.outcome).sort()).toEqual(['skipped', 'succeeded']);
    const done = reports.find((report) => report.outcome === 'succeeded')!;
    // This test's rows, and maybe aged rows of an earlier test that were still pending in its own run.
    for (const table of ['notifications', 'messages', 'trigger_events'] as const)
      expect(done.removed[table]).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(t, old)).toEqual(nothingLeft);
    const totals = await status();
    expect(totals.succeeded).toBe(totalsBefore.succeeded + 1);
    expect(totals.skipped).toBe(totalsBefore.skipped + 1);
    for (const table of ['notifications', 'messages', 'trigger_events'] as const)
      expect(totals.removedTotal[table]).toBe((totalsBefore.removedTotal[table] ?? 0) + done.removed[table]);
  });

  it('a run stopped by the shutdown ends between two batches and is recorded as interrupted', async () => {
    const old = (await deliver('ret-interrupted')).transactionId;
    await age(t, old, 400);
    const before = await rowsOf(t, old);
    const interruptedBefore = (await status()).interrupted;

    const running = run();
    t.app.get(MaintenanceRun).stop();

    expect((await running).outcome).toBe('interrupted');
    expect(await rowsOf(t, old)).toEqual(before);
    expect((await status()).interrupted).toBe(interruptedBefore + 1);
    expect((await run()).outcome).toBe('succeeded');
    expect(await rowsOf(t, old)).toEqual(nothingLeft);
  });

  // Only on a PostgreSQL server: the embedded database serves every connection in one session, where
  // there is no other session to hold the lock (the in-process guard is the test above).
  if (process.env.DATABASE_URL)
    it('a run is skipped while another session (worker) holds the lock', async () => {
      const other = new pg.Client({ connectionString: t.runtime.databaseUrl });
      await other.connect();
      try {
        await other.query('SELECT pg_advisory_lock($1, $2)', [...MAINTENANCE_LOCK_KEY]);
        expect((await run()).outcome).toBe('skipped');
        await other.query('SELECT pg_advisory_unlock($1, $2)', [...MAINTENANCE_LOCK_KEY]);
        expect((await run()).outcome).toBe('succeeded');
      } finally {
        await other.end();
      }
    });

  it('a failed run is recorded, changes nothing of its batch, and is retried by the queue', async () => {
    const old = (await deliver('ret-failure')).transactionId;
    await age(t, old, 400);
    const before = await rowsOf(t, old);
    const failedBefore = (await status()).failed;
    await t.db.execute(sql`ALTER TABLE execution_details RENAME TO execution_details_away`);
    let renamed = true;
    try {
      const job = await t.queue.add('maintenance', {}, { backoff: { type: 'fixed', delay: 2_000 } });
      await waitFor(async () => (await status()).failed > failedBefore, { description: 'the failure' });
      expect((await status()).lastError).toMatch(/execution_details/);
      // One statement per batch: the notification is still there with its jobs and details.
      await t.db.execute(sql`ALTER TABLE execution_details_away RENAME TO execution_details`);
      renamed = false;
      expect(await rowsOf(t, old)).toEqual(before);
      await waitFor(async () => (await job.getState()) === 'completed', {
        timeoutMs: 15_000,
        description: 'the retry',
      });
      expect(await rowsOf(t, old)).toEqual(nothingLeft);
    } finally {
      if (renamed) await t.db.execute(sql`ALTER TABLE execution_details_away RENAME TO execution_details`);
    }
  });

  it('/metrics shows what the runs did, read from the database (the same on every process)', async () => {
    const row = await status();
    const text = (await t.http.get('/metrics')).text;
    const value = (metric: string) => Number(new RegExp(`^${metric} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('maintenance_runs_total\\{outcome="succeeded"\\}')).toBe(row.succeeded);
    expect(value('maintenance_runs_total\\{outcome="skipped"\\}')).toBe(row.skipped);
    expect(value('maintenance_runs_total\\{outcome="failed"\\}')).toBeGreaterThanOrEqual(1);
    expect(value('maintenance_rows_removed_total\\{table="notifications"\\}')).toBe(row.removedTotal.notifications);
    expect(value('maintenance_rows_removed_total\\{table="messages"\\}')).toBe(row.removedTotal.messages);
    expect(value('maintenance_last_success_timestamp_seconds')).toBe(row.lastSuccessAt!.getTime() / 1000);
    expect(value('maintenance_last_run_duration_seconds')).toBe(row.lastDurationMs! / 1000);
    expect(text).toMatch(/^maintenance_last_run_rows_removed\{table="notifications"\} \d+$/m);
    // Where the last run's time went, phase by phase; the phases happen one after the other within the run.
    const phases = [
      'partition_create',
      'partition_drop',
      'notifications',
      'trigger_events',
      'messages',
      'webhook_events',
      'idempotency_keys',
    ];
    expect(Object.keys(row.lastPhasesMs).sort()).toEqual([...phases].sort());
    for (const phase of phases)
      expect(value(`maintenance_last_run_phase_duration_seconds\\{phase="${phase}"\\}`)).toBe(
        row.lastPhasesMs[phase] / 1000,
      );
    const phaseSum = Object.values(row.lastPhasesMs).reduce((sum, ms) => sum + ms, 0);
    expect(phaseSum).toBeLessThanOrEqual(row.lastDurationMs! + phases.length);
    // The partition test dropped a week of notifications, jobs and execution details.
    expect(value('maintenance_partitions_dropped_total\\{table="notifications"\\}')).toBe(
      row.removedTotal['partitions:notifications'],
    );
    expect(row.removedTotal['partitions:notifications']).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/rows_removed\{table="partitions:/);
  });
});
