import type { GroupCommitOptions } from '#common';
import { isDatabaseUnavailable } from '#dal';

/**
 * The worker's group commits write a failed batch again item by item, so one bad item fails only its
 * own job or event; not when the database is unreachable, which every item would meet again.
 */
export const WORKER_GROUP_COMMIT: GroupCommitOptions = { retryAlone: (error) => !isDatabaseUnavailable(error) };
