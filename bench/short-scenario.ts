import { SUBSCRIBER_PREFIX } from './database.js';
import type { Deployment } from './deployment.js';
import type { BenchOptions } from './options.js';
import { sustainedTriggers, type SustainedRun } from './sustained.js';

/** The scenario as a new user meets it: subscribers created through the API, a short burst, no tuning. */
export const SHORT_SUBSCRIBERS = 20_000;
export const SHORT_SECONDS = 15;
/** What `POST /v1/subscribers/bulk` takes per request. */
const BULK_SIZE = 500;
/** Bulk requests in flight while creating the subscribers. */
const BULK_CONCURRENCY = 4;

export interface ShortScenarioResult {
  subscribers: number;
  /** Creating them through `POST /v1/subscribers/bulk`. */
  createSeconds: number;
  existing: SustainedRun;
  newSubscribers: SustainedRun;
}

async function createSubscribers(deployment: Deployment): Promise<void> {
  const batches = Math.ceil(SHORT_SUBSCRIBERS / BULK_SIZE);
  let next = 0;
  const createBatches = async () => {
    while (next < batches) {
      const first = next++ * BULK_SIZE;
      const count = Math.min(BULK_SIZE, SHORT_SUBSCRIBERS - first);
      const subscribers = Array.from({ length: count }, (_, i) => ({
        subscriberId: `${SUBSCRIBER_PREFIX}${first + i + 1}`,
        firstName: `Bench ${first + i + 1}`,
      }));
      const answer = await deployment.client.request('POST', '/v1/subscribers/bulk', { subscribers });
      const text = await answer.text();
      if (!answer.ok) throw new Error(`POST /v1/subscribers/bulk answered ${answer.status}: ${text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: BULK_CONCURRENCY }, createBatches));
}

/**
 * On a deployment of its own with nothing seeded by SQL: 20,000 subscribers created through the API,
 * then 15 s of triggers to them and 15 s with a new subscriber object in each, counted end to end
 * (until every accepted trigger's message exists). Nothing is analyzed or vacuumed before it beyond
 * what autovacuum would do (the bench's stand-in runs throughout).
 */
export async function shortScenario(deployment: Deployment, options: BenchOptions): Promise<ShortScenarioResult> {
  const started = performance.now();
  await createSubscribers(deployment);
  const createSeconds = (performance.now() - started) / 1000;
  const short = { ...options, subscribers: SHORT_SUBSCRIBERS, sustainedDuration: SHORT_SECONDS };
  const existing = await sustainedTriggers(deployment, short, 'existing', '-short');
  const newSubscribers = await sustainedTriggers(deployment, short, 'new', '-short');
  return { subscribers: SHORT_SUBSCRIBERS, createSeconds, existing, newSubscribers };
}
