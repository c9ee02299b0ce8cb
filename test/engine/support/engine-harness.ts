import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Job, JobType } from 'bullmq';
import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  AdjustableClock,
  createLogger,
  loadConfig,
  newId,
  PinoNestLogger,
  TERMINAL_JOB_STATUSES,
  type JobStatus,
} from '#common';
import { generateApiKey, hashApiKey, TenancyService } from '#application';
import { EnvironmentRepository, jobs, triggerEvents, type Database, type Environment, type JobRow } from '#dal';
import { JobQueue, QUEUE_NAMES, type JobPayloads } from '#event-processing/producer';
import type { AuthContext } from '#api/auth/auth-context.js';
import { BulkTriggerEventDto, TriggerEventDto, type TriggerResponseDto } from '#api/events/dto/trigger-event.dto.js';
import { BulkTriggerEventUseCase } from '#api/events/use-cases/bulk-trigger-event.use-case.js';
import { CancelTriggerUseCase } from '#api/events/use-cases/cancel-trigger.use-case.js';
import { TriggerEventUseCase } from '#api/events/use-cases/trigger-event.use-case.js';
import { prepareRuntime } from '#api/runtime.js';
import { TEST_ENCRYPTION_KEY } from '../../support/test-app.js';
import { createTestDatabase } from '../../support/test-database.js';
import { EngineSignals } from './engine-signals.js';
import { EngineTestModule } from './engine-module.js';
import { validated } from './validated.js';

const FANNED_OUT = new Set(['done', 'canceled', 'failed']);

/** What a wait reads of a job at each signal. */
type JobProgress = Pick<JobRow, 'id' | 'transactionId' | 'status'>;

/** Fanned out (or canceled before, or failed), and every job of it ended. */
const allEnded = (jobs: JobProgress[], eventStatus: string | undefined) =>
  eventStatus !== undefined &&
  FANNED_OUT.has(eventStatus) &&
  jobs.every((job) => TERMINAL_JOB_STATUSES.includes(job.status as JobStatus));

interface SettleOptions {
  /** The state to wait for instead of every job ended; `eventStatus` is undefined before the event is stored. */
  until?: (jobs: JobProgress[], eventStatus: string | undefined) => boolean;
  timeoutMs?: number;
}

/** The engine of one test file: its application context, its database and the Development environment. */
export interface Engine {
  app: INestApplicationContext;
  db: Database;
  clock: AdjustableClock;
  queue: JobQueue;
  environment: Environment;
  /** The Development environment as its API key's guard would resolve it. */
  auth: AuthContext;
  /** The body as POST /v1/events/trigger validates it, then the route's use case. */
  trigger(body: Record<string, unknown>): Promise<TriggerResponseDto>;
  /** The events as POST /v1/events/trigger/bulk takes them. */
  triggerBulk(events: Record<string, unknown>[]): Promise<TriggerResponseDto[]>;
  /** DELETE /v1/events/trigger/{transactionId}'s use case. */
  cancel(transactionId: string): Promise<boolean>;
  /** Triggers (expecting `processed`) and waits until the transaction settles. */
  triggerAndSettle(
    body: Record<string, unknown>,
    options?: SettleOptions,
  ): Promise<{ transactionId: string; jobs: JobRow[] }>;
  /** Waits until the transaction's event is fanned out and every job ended (or `until`); returns its jobs. */
  settled(transactionId: string, options?: SettleOptions): Promise<JobRow[]>;
  /** settled() for several transactions at once. */
  settledAll(transactionIds: string[], options?: SettleOptions): Promise<JobRow[][]>;
  /**
   * With the step queue paused: waits until the transaction is fanned out and each of its queued jobs
   * sits in a waiting step entry; returns the waiting entries.
   */
  heldEntries(transactionId: string, timeoutMs?: number): Promise<Job<JobPayloads['run-step']>[]>;
  /** Waits until `condition` holds, checked again at each engine signal about these transactions. */
  until(transactionIds: Iterable<string>, condition: () => Promise<boolean>, description: string): Promise<void>;
  /** Waits until a queue consumer of this process has run the entry, or an entry that `entry` matches. */
  processed(entry: Job | ((finished: Job) => boolean)): Promise<void>;
  close(): Promise<void>;
}

/**
 * The engine without HTTP: a Nest application context (EngineTestModule) on a fresh database cloned
 * from the template, with the same queue backend as the e2e tests (embedded: BullMQ on PGlite; with
 * DATABASE_URL and REDIS_URL: the server and Redis). Tests trigger through the api's use cases and
 * await the engine's own signals (EngineSignals).
 */
export async function startEngine(env: Record<string, string> = {}): Promise<Engine> {
  const database = await createTestDatabase();
  const config = loadConfig({
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}`,
    ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    RECOVERY_GRACE_SECONDS: '5',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
  });
  const logger = createLogger(config.logLevel);
  const runtime = await prepareRuntime(config, logger, { loadDataDir: database.loadDataDir });
  const clock = new AdjustableClock();
  const app = await NestFactory.createApplicationContext(EngineTestModule.register(runtime, clock), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  await app.init();
  const signals = new EngineSignals(app);

  const apiKey = generateApiKey();
  await app.get(TenancyService).ensureFirstBoot(apiKey);
  const environments = app.get(EnvironmentRepository);
  const environment = (await environments.findEnvironmentByName('Development'))!;
  const owner = (await environments.findOwnerOfKeyHash(hashApiKey(apiKey)))!;
  const auth: AuthContext = {
    actorId: owner.apiKeyId,
    environmentId: owner.environmentId,
    organizationId: owner.organizationId,
  };
  const db = runtime.database.db;

  const ofTransactions = (transactionIds: string[]) =>
    and(eq(jobs.environmentId, auth.environmentId), inArray(jobs.transactionId, transactionIds));
  const inStepOrder = [asc(jobs.notificationId), asc(jobs.stepIndex)];
  /** Each transaction's rows, in the order they came. */
  const byTransaction = <T extends { transactionId: string }>(transactionIds: string[], rows: T[]) =>
    transactionIds.map((id) => rows.filter((row) => row.transactionId === id));
  /** Each transaction's jobs, in step order per notification. */
  const jobsOfAll = async (transactionIds: string[]) =>
    byTransaction(
      transactionIds,
      await db
        .select()
        .from(jobs)
        .where(ofTransactions(transactionIds))
        .orderBy(...inStepOrder),
    );
  /**
   * What a wait checks at each signal: the event's status, then its jobs' statuses (two light
   * statements). In that order: the jobs are written in the transaction that marks the event done, so
   * jobs read after a `done` are all there; read the other way round (or at once), a check could see
   * the event done and none of its jobs, which every() takes for all ended.
   */
  const progressOf = async (transactionIds: string[]) => {
    const events = await db
      .select({ transactionId: triggerEvents.transactionId, status: triggerEvents.status })
      .from(triggerEvents)
      .where(
        and(eq(triggerEvents.environmentId, auth.environmentId), inArray(triggerEvents.transactionId, transactionIds)),
      );
    const jobRows = await db
      .select({ id: jobs.id, transactionId: jobs.transactionId, status: jobs.status })
      .from(jobs)
      .where(ofTransactions(transactionIds))
      .orderBy(...inStepOrder);
    const statuses = new Map(events.map((row) => [row.transactionId, row.status]));
    const jobsOf = byTransaction(transactionIds, jobRows);
    return transactionIds.map((id, index) => ({ id, jobs: jobsOf[index], eventStatus: statuses.get(id) }));
  };
  const settledAll = async (transactionIds: string[], { until = allEnded, timeoutMs }: SettleOptions = {}) => {
    let progress: Awaited<ReturnType<typeof progressOf>> = [];
    await signals.until(
      transactionIds,
      async () => {
        progress = await progressOf(transactionIds);
        return progress.every(({ jobs, eventStatus }) => until(jobs, eventStatus));
      },
      {
        timeoutMs,
        describe: () =>
          `${transactionIds.length} transaction(s) to settle: ${JSON.stringify(
            progress.map(({ id, jobs, eventStatus }) => ({ id, eventStatus, jobs: jobs.map((job) => job.status) })),
          )}`,
      },
    );
    return jobsOfAll(transactionIds);
  };

  const queue = app.get(JobQueue);
  const heldEntries = async (transactionId: string, timeoutMs?: number) => {
    let entries: Job<JobPayloads['run-step']>[] = [];
    // The event is done before its last chunk's entry is added: the entries are read until they hold
    // every queued job (the fan-out signals each chunk once its entry is in the queue).
    await signals.until(
      [transactionId],
      async () => {
        const [{ jobs: rows, eventStatus }] = await progressOf([transactionId]);
        // 'paused' (the waiting list of a paused queue) is read by both backends; BullMQ's JobType does not name it.
        entries = await queue.queue(QUEUE_NAMES.steps).getJobs(['waiting', 'paused'] as JobType[]);
        const held = new Set(entries.flatMap((entry) => entry.data.jobIds));
        return eventStatus === 'done' && rows.every((job) => job.status !== 'queued' || held.has(job.id));
      },
      { timeoutMs, describe: () => `the step entries of ${transactionId}` },
    );
    return entries;
  };

  const engine: Engine = {
    app,
    db,
    clock,
    queue,
    environment,
    auth,
    trigger: async (body) =>
      app.get(TriggerEventUseCase).execute(auth, await validated(TriggerEventDto, body), newId()),
    triggerBulk: async (events) =>
      app
        .get(BulkTriggerEventUseCase)
        .execute(auth, (await validated(BulkTriggerEventDto, { events })).events, newId()),
    cancel: (transactionId) => app.get(CancelTriggerUseCase).execute(auth, transactionId),
    triggerAndSettle: async (body, options) => {
      const response = await engine.trigger(body);
      if (response.status !== 'processed') throw new Error(`trigger answered ${JSON.stringify(response)}`);
      const transactionId = response.transactionId!;
      return { transactionId, jobs: await engine.settled(transactionId, options) };
    },
    settled: async (transactionId, options) => (await settledAll([transactionId], options))[0],
    settledAll,
    heldEntries,
    until: (transactionIds, condition, description) =>
      signals.until(transactionIds, condition, { describe: () => description }),
    processed: (entry) => signals.processed(entry),
    close: async () => {
      signals.close();
      await app.close();
      await runtime.close();
      await database.drop();
    },
  };
  return engine;
}
