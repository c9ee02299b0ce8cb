import type { INestApplicationContext } from '@nestjs/common';
import { asc, eq } from 'drizzle-orm';
import { newId, TERMINAL_JOB_STATUSES, type JobStatus } from '#common';
import {
  executionDetails,
  jobs,
  messages,
  WorkflowRepository,
  type Database,
  type Environment,
  type ExecutionDetailRow,
  type JobRow,
  type MessageRow,
  type StoredStep,
  type WorkflowRow,
} from '#dal';
import type { TestApp } from './test-app.js';
import { waitFor } from './wait.js';

/** What the fixtures read and write through: a TestApp (e2e) or an Engine (test/engine). */
export interface EngineScope {
  app: Pick<INestApplicationContext, 'get'>;
  environment: Environment;
  db: Database;
}

export type StepInput = Partial<StoredStep> & { template: StoredStep['template'] };

/** A stored step with the defaults the workflows module would give it. */
export function step(input: StepInput): StoredStep {
  return { _id: newId(), active: true, shouldStopOnFail: false, filters: [], ...input };
}

export const inApp = (content = 'Hello {{subscriber.firstName}}', extra: Partial<StoredStep> = {}) =>
  step({ template: { type: 'in_app', content }, ...extra });

/** Inserts a workflow straight through the repository, so engine tests do not depend on the workflows API. */
export async function createWorkflow(
  t: EngineScope,
  values: {
    identifier?: string;
    steps: StoredStep[];
    active?: boolean;
    critical?: boolean;
    preferenceSettings?: Record<string, boolean>;
  },
): Promise<WorkflowRow> {
  const repository = t.app.get(WorkflowRepository);
  const scope = { environmentId: t.environment.id, organizationId: t.environment.organizationId };
  const group = await repository.findOrCreateGroup(scope, 'General');
  const identifier = values.identifier ?? `wf-${newId().slice(-12)}`;
  const row = await repository.create(scope, {
    identifier,
    name: identifier,
    active: values.active ?? true,
    critical: values.critical ?? false,
    preferenceSettings: values.preferenceSettings ?? {},
    steps: values.steps,
    notificationGroupId: group.id,
  });
  if (!row) throw new Error(`workflow ${identifier} exists`);
  return row;
}

/** Triggers and waits until every job of the transaction has stopped moving (terminal or waiting). */
export async function triggerAndSettle(
  t: TestApp,
  body: Record<string, unknown>,
  settled: (rows: JobRow[]) => boolean = (rows) =>
    rows.length > 0 && rows.every((job) => TERMINAL_JOB_STATUSES.includes(job.status as JobStatus)),
  timeoutMs = 15_000,
): Promise<{ transactionId: string; jobs: JobRow[] }> {
  const res = await t.api('post', '/v1/events/trigger').send(body);
  if (res.status !== 201 || res.body.status !== 'processed')
    throw new Error(`trigger answered ${res.status} ${JSON.stringify(res.body)}`);
  const transactionId = res.body.transactionId as string;
  let rows: JobRow[] = [];
  await waitFor(
    async () => {
      rows = await jobsOf(t, transactionId);
      return settled(rows);
    },
    { timeoutMs, description: `jobs of ${transactionId} to settle` },
  );
  return { transactionId, jobs: rows };
}

export async function jobsOf(t: EngineScope, transactionId: string): Promise<JobRow[]> {
  return t.db
    .select()
    .from(jobs)
    .where(eq(jobs.transactionId, transactionId))
    .orderBy(asc(jobs.notificationId), asc(jobs.stepIndex));
}

export async function detailsOf(t: EngineScope, jobId: string): Promise<ExecutionDetailRow[]> {
  return t.db
    .select()
    .from(executionDetails)
    .where(eq(executionDetails.jobId, jobId))
    .orderBy(asc(executionDetails.createdAt), asc(executionDetails.id));
}

export async function messagesOf(t: EngineScope, transactionId: string): Promise<MessageRow[]> {
  return t.db.select().from(messages).where(eq(messages.transactionId, transactionId)).orderBy(asc(messages.createdAt));
}

/** triggerAndSettle with another environment's key. */
export async function triggerWithKeyAndSettle(
  t: TestApp,
  apiKey: string,
  body: Record<string, unknown>,
  timeoutMs = 15_000,
): Promise<{ transactionId: string; jobs: JobRow[] }> {
  const res = await t.api('post', '/v1/events/trigger', apiKey).send(body);
  if (res.status !== 201 || res.body.status !== 'processed')
    throw new Error(`trigger answered ${res.status} ${JSON.stringify(res.body)}`);
  const transactionId = res.body.transactionId as string;
  let rows: JobRow[] = [];
  await waitFor(
    async () => {
      rows = await jobsOf(t, transactionId);
      return rows.length > 0 && rows.every((job) => TERMINAL_JOB_STATUSES.includes(job.status as JobStatus));
    },
    { timeoutMs, description: `jobs of ${transactionId} to settle` },
  );
  return { transactionId, jobs: rows };
}
