import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  freePort,
  startService,
  waitForHealthy,
  WORKER_MAIN,
  type ServiceProcess,
} from '../support/service-process.js';
import { TEST_ENCRYPTION_KEY } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { Deployment } from './support/deployment.js';

const MAX_STALLS = 3;
/** Worker deaths the bound allows: one while the job ran unclaimed (a first in_app run), one per counted stall, one of slack. */
const MAX_DEATHS = MAX_STALLS + 2;
/** A restart beyond this stops the supervisor: the job was not bounded. */
const RESTART_CAP = MAX_STALLS + 6;
const TIMEOUT_MS = 240_000;
/** Liquid builds a 100,000,000-element range: far beyond the worker's heap. */
const POISON_CONTENT = '{% for i in (1..100000000) %}x{% endfor %}';
const DETAIL = `The worker running this step stopped ${MAX_STALLS} times (crash, out of memory or a lost lock); the step is not retried`;

interface Death {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** V8's fatal error line, or else the last lines the process wrote. */
  cause: string;
}

/**
 * Scenario 9: a poison step job. Its in_app template runs the worker out of memory on every run (a
 * 96 MB heap; template limits raised so Liquid itself does not stop the render). The worker is
 * restarted each time it dies, as a container orchestrator would. The job must end `failed` after
 * JOB_MAX_STALLS stops with a detail, after a bounded number of deaths, and the service deliver
 * other work meanwhile and afterwards.
 */
describe('poison step job (real processes)', () => {
  let deployment: Deployment;
  let workerEnv: Record<string, string>;
  const deaths: Death[] = [];
  let restarts = 0;
  let supervising = true;
  let restarting: Promise<void> = Promise.resolve();

  /** Starts a worker and, while supervising, starts another whenever it exits. */
  const startWorker = async (): Promise<void> => {
    const worker: ServiceProcess = startService(workerEnv, await freePort(), WORKER_MAIN);
    deployment.worker = worker;
    worker.child.once('exit', (code, signal) => {
      const output = worker.output().trim();
      deaths.push({
        code,
        signal,
        cause: /^.*FATAL ERROR.*$/m.exec(output)?.[0] ?? output.split('\n').slice(-3).join('\n').slice(-600),
      });
      if (!supervising || restarts >= RESTART_CAP) return;
      restarts++;
      restarting = startWorker();
    });
    // It may die before it answers (the poison is waiting for it): the exit handler restarts it.
    await waitForHealthy(worker, 60_000).catch(() => undefined);
  };

  beforeAll(async () => {
    deployment = await Deployment.start({ RECOVERY_GRACE_SECONDS: '2' }, { worker: false });
    workerEnv = {
      DATABASE_URL: deployment.sql.options.connectionString!,
      REDIS_URL: process.env.REDIS_URL!,
      QUEUE_PREFIX: deployment.prefix,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      ROLE: 'worker',
      RECOVERY_GRACE_SECONDS: '2',
      JOB_MAX_STALLS: String(MAX_STALLS),
      TEMPLATE_MEMORY_LIMIT: '1000000000000',
      TEMPLATE_RENDER_TIME_LIMIT_MS: '600000',
      NODE_OPTIONS: '--max-old-space-size=96',
    };
    await startWorker();
  });
  afterAll(async () => {
    supervising = false;
    await restarting;
    await deployment?.stop();
  });

  const createWorkflow = async (name: string, content: string): Promise<string> => {
    const res = await deployment.call('POST', '/v1/workflows', {
      name,
      steps: [{ template: { type: 'in_app', content } }],
    });
    expect(res.status).toBe(201);
    return res.body.triggers[0].identifier as string;
  };
  const trigger = async (workflow: string, to: string, transactionId: string) => {
    const res = await deployment.call('POST', '/v1/events/trigger', { name: workflow, to, transactionId, payload: {} });
    expect(res.status).toBe(201);
  };
  const jobOf = async (transactionId: string) =>
    (
      await deployment.sql.query('SELECT id, status, error, stalls, attempts FROM jobs WHERE transaction_id = $1', [
        transactionId,
      ])
    ).rows[0] as { id: string; status: string; error: string | null; stalls: number; attempts: number } | undefined;
  const delivered = async (transactionId: string) => (await deployment.messages(transactionId)) === 1;

  it('the job fails after JOB_MAX_STALLS worker stops with a detail; deaths are bounded; the restarted worker delivers', async () => {
    const poison = await createWorkflow('Poison', POISON_CONTENT);
    const normal = await createWorkflow('Normal', 'Hello');
    const started = Date.now();
    await trigger(poison, 'poison-sub', 'poison');
    // Meanwhile, once the poison has killed a worker, other work keeps being delivered.
    await waitFor(() => deaths.length >= 1, {
      timeoutMs: 60_000,
      intervalMs: 100,
      description: 'the first worker death',
    });
    await trigger(normal, 'meanwhile-sub', 'meanwhile');

    await waitFor(async () => (await jobOf('poison'))?.status === 'failed', {
      timeoutMs: TIMEOUT_MS,
      intervalMs: 250,
      description: 'the poison job to fail',
    }).catch(async (error: Error) => {
      throw new Error(
        `${error.message}; job ${JSON.stringify(await jobOf('poison'))}; deaths ${JSON.stringify(deaths, null, 1)}`,
      );
    });
    const seconds = (Date.now() - started) / 1000;
    const job = (await jobOf('poison'))!;
    expect([job.status, job.error, job.stalls]).toEqual(['failed', DETAIL, MAX_STALLS]);
    const details = await deployment.sql.query('SELECT status, detail FROM execution_details WHERE job_id = $1', [
      job.id,
    ]);
    expect(details.rows).toEqual([{ status: 'Failed', detail: DETAIL }]);
    expect(await deployment.messages('poison')).toBe(0);

    // Every death was the render running the heap out; their number is bounded.
    const deathsAtFailure = deaths.length;
    expect(deathsAtFailure).toBeGreaterThanOrEqual(MAX_STALLS);
    expect(deathsAtFailure).toBeLessThanOrEqual(MAX_DEATHS);
    for (const death of deaths) expect(death.cause).toMatch(/heap out of memory/);

    await waitFor(() => delivered('meanwhile'), {
      timeoutMs: 60_000,
      intervalMs: 250,
      description: 'the trigger sent meanwhile',
    });

    // The worker alive now delivers a normal trigger and stays alive.
    await restarting;
    const worker = deployment.worker;
    await waitForHealthy(worker, 60_000);
    await trigger(normal, 'after-sub', 'after');
    await waitFor(() => delivered('after'), {
      timeoutMs: 60_000,
      intervalMs: 250,
      description: 'the trigger sent afterwards',
    });
    expect(deployment.worker).toBe(worker);
    expect(worker.child.exitCode).toBeNull();
    expect(deaths).toHaveLength(deathsAtFailure);
    console.log(
      `poison job: failed after ${job.stalls} stalls (${job.attempts} claims), ${deathsAtFailure} worker deaths ` +
        `(${deaths.map((death) => death.signal ?? death.code).join(', ')}), ${seconds.toFixed(1)} s after the trigger; ` +
        `the restarted worker delivered the next trigger`,
    );
  });
});
