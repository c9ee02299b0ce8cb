import type { JobsOptions } from 'bullmq';
import type { JobPayloads } from './job-catalogue.js';

/** Step jobs per queue entry: one fan-out chunk's first steps fit in one. */
export const STEP_BATCH = 500;

/**
 * Queue entries for step jobs: grouped by environment (and by due time, for waiting jobs whose
 * entry is delayed) and cut into batches of STEP_BATCH; `marks` go into every entry.
 */
export function stepEntries(
  jobs: { id: string; environmentId: string; delayMs?: number }[],
  marks: Pick<JobPayloads['run-step'], 'recovered'> = {},
): { data: JobPayloads['run-step']; options?: JobsOptions }[] {
  const groups = new Map<string, { environmentId: string; delayMs?: number; jobIds: string[] }>();
  for (const job of jobs) {
    const key = `${job.environmentId}|${job.delayMs ?? 0}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { environmentId: job.environmentId, delayMs: job.delayMs, jobIds: [] }));
    group.jobIds.push(job.id);
  }
  const entries: { data: JobPayloads['run-step']; options?: JobsOptions }[] = [];
  for (const { environmentId, delayMs, jobIds } of groups.values()) {
    for (let start = 0; start < jobIds.length; start += STEP_BATCH) {
      entries.push({
        data: { environmentId, jobIds: jobIds.slice(start, start + STEP_BATCH), ...marks },
        options: delayMs ? { delay: delayMs } : undefined,
      });
    }
  }
  return entries;
}
