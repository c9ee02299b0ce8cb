import type { AutovacuumRecord } from './autovacuum.js';
import { countMessages, createWorkflow, databaseSize } from './database.js';
import type { Deployment } from './deployment.js';
import type { BenchOptions } from './options.js';
import { sustainedTriggers, type SustainedRun } from './sustained.js';

/** How often the soak counts delivered messages, to show the rate over the run. */
const SAMPLE_SECONDS = 30;

interface SoakInterval {
  /** Seconds from the first send to the interval's end. */
  endSecond: number;
  deliveredPerSecond: number;
}

export interface SoakResult {
  run: SustainedRun;
  /** Messages delivered per second in each 30 s of the run (the last one may include the drain). */
  intervals: SoakInterval[];
  databaseMbBefore: number;
  databaseMbAfter: number;
  /** What the bench's autovacuum did during the run. */
  vacuumed: AutovacuumRecord;
}

/**
 * The sustained scenario (existing subscribers) for `soakDuration` seconds: long enough for table
 * growth, checkpoints and vacuum debt to show in the delivered rate.
 */
export async function soak(deployment: Deployment, options: BenchOptions): Promise<SoakResult> {
  const before = await databaseSize(deployment.pool);
  const vacuumedBefore = { ...deployment.vacuumed };
  const intervals: SoakInterval[] = [];
  const sample = (workflowId: string) => {
    const startedAt = performance.now();
    let last = 0;
    const timer = setInterval(() => {
      void countMessages(deployment.pool, { workflowId }, deployment.scope.environmentId).then((delivered) => {
        intervals.push({
          endSecond: Math.round((performance.now() - startedAt) / 1000),
          deliveredPerSecond: (delivered - last) / SAMPLE_SECONDS,
        });
        last = delivered;
      });
    }, SAMPLE_SECONDS * 1000);
    return () => clearInterval(timer);
  };
  const run = await sustainedTriggers(
    deployment,
    { ...options, sustainedDuration: options.soakDuration },
    'existing',
    '-soak',
    (name) => createWorkflow(deployment.pool, deployment.scope, deployment.client, name),
    sample,
  );
  const after = deployment.vacuumed;
  return {
    run,
    intervals,
    databaseMbBefore: before / 1e6,
    databaseMbAfter: (await databaseSize(deployment.pool)) / 1e6,
    vacuumed: {
      vacuums: after.vacuums - vacuumedBefore.vacuums,
      analyzes: after.analyzes - vacuumedBefore.analyzes,
      busySeconds: after.busySeconds - vacuumedBefore.busySeconds,
    },
  };
}
