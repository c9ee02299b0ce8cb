import type { JobsOptions } from 'bullmq';
import { groupBy } from '#common';
import type { JobPayloads } from './job-catalogue.js';

// The queue carries ids, a batch per entry: stored events for the fan-out, step jobs for run-step.

/** Events per fan-out queue entry: one api batch of single triggers, or one bulk request. */
export const FAN_OUT_EVENTS_PER_ENTRY = 100;

/** Groups stored events into fan-out queue entries, per environment, at most FAN_OUT_EVENTS_PER_ENTRY each. */
export function fanOutEntries(events: { id: string; environmentId: string }[]): { data: JobPayloads['fan-out'] }[] {
  return [...groupBy(events, (event) => event.environmentId)].flatMap(([environmentId, group]) => {
    const ids = group.map((event) => event.id);
    const entries: { data: JobPayloads['fan-out'] }[] = [];
    for (let start = 0; start < ids.length; start += FAN_OUT_EVENTS_PER_ENTRY) {
      entries.push({ data: { environmentId, eventIds: ids.slice(start, start + FAN_OUT_EVENTS_PER_ENTRY) } });
    }
    return entries;
  });
}

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
