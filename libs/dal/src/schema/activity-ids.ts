import { derivedId, idInTimeOf } from '#common';

// The activity tables are partitioned by id range (migration 0026), where no unique index on a pair
// of columns can exist: the row each pair identifies has an id derived from the pair instead, and the
// primary key keeps it unique. A retried write of the same pair finds the same id.

/** The notification of a trigger event for one subscriber (internal id). */
export const notificationIdOf = (eventId: string, subscriberId: string): string => derivedId(eventId, subscriberId);

/** The job of a notification's step. */
export const jobIdOf = (notificationId: string, stepIndex: number): string =>
  derivedId(notificationId, String(stepIndex));

/** The message of a job's delivery ('' for a step that sends one message). */
export const messageIdOf = (jobId: string, deliveryKey: string): string => derivedId(jobId, deliveryKey);

/**
 * An execution detail of a job: one of many, so not derived from a pair, but in the job's millisecond,
 * so a page of the activity feed finds it in its notifications' id range (migration 0027).
 */
export const executionDetailIdOf = (jobId: string): string => idInTimeOf(jobId);
