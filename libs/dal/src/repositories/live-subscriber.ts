import { and, eq, type SQL } from 'drizzle-orm';
import { subscribers } from '../schema/index.js';

/** The live (not deleted) subscriber with this external id in the environment. */
export function liveSubscriber(environmentId: string, subscriberId: string): SQL | undefined {
  return and(
    eq(subscribers.environmentId, environmentId),
    eq(subscribers.subscriberId, subscriberId),
    eq(subscribers.deleted, false),
  );
}
