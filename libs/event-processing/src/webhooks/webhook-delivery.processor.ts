import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { Clock, groupBy, webhookAttemptDuration, webhookAttempts, webhookEndpointsDisabled } from '#common';
import { WebhookDeliveryRepository, WebhookEndpointRepository, type AttemptResult, type WebhookSend } from '#dal';
import { QUEUE_NAMES, type JobPayloads } from '../queue/job-catalogue.js';
import { JobQueue } from '../queue/job-queue.service.js';
import { QueueConsumer } from '../queue/queue-consumer.js';
import { EndpointLane } from './endpoint-lane.js';
import { retryAfterMs, retryWaitMs } from './retry-schedule.js';
import { WebhookSender, type AttemptAnswer } from './webhook-sender.js';

/** Jobs only hand deliveries to their endpoint's lane: a few at once per worker are plenty. */
const CONCURRENCY = 8;
/** Requests of one endpoint in flight at once, started in event order. */
const SENDS_PER_ENDPOINT = 8;
/** Deliveries sent, then written in one statement, per round of a lane. */
const BATCH_SIZE = 64;
/** Deliveries one endpoint may hold in this process; more wait in the database a second. */
const LANE_CAPACITY = 1_000;
const FULL_LANE_WAIT_MS = 1_000;
/** An endpoint without a success for this long is turned off. */
const FAILING_LIMIT_MS = 5 * 24 * 60 * 60 * 1000;

interface Attempted {
  send: WebhookSend;
  answer: AttemptAnswer;
}

interface Outcome {
  delivery: WebhookSend['delivery'];
  result: AttemptResult;
  /** The `webhook_attempts_total` outcome. */
  metric: 'succeeded' | 'retrying' | 'failed' | 'disabled';
  /** When another attempt is due. */
  retryInMs?: number;
}

/** What an attempt leaves: done, due again later, or failed for good (no attempt left, or the endpoint turned off). */
function outcomeOf({ send, answer }: Attempted, endpointTurnedOff: boolean, now: Date): Outcome {
  const { delivery } = send;
  const result = (status: AttemptResult['status'], nextAttemptAt: Date | null = null): AttemptResult => ({
    status,
    nextAttemptAt,
    statusCode: answer.statusCode,
    durationMs: answer.durationMs,
    error: answer.error,
    counted: true,
  });
  if (answer.ok) return { delivery, result: result('succeeded'), metric: 'succeeded' };
  if (endpointTurnedOff) return { delivery, result: result('failed'), metric: 'disabled' };
  const scheduled = retryWaitMs(delivery.attempts + 1);
  if (scheduled === undefined) return { delivery, result: result('failed'), metric: 'failed' };
  const retryInMs = Math.max(scheduled, retryAfterMs(answer.retryAfter, now) ?? 0);
  return { delivery, result: result('pending', new Date(now.getTime() + retryInMs)), metric: 'retrying', retryInMs };
}

/**
 * Sends webhook deliveries. A job hands its deliveries to their endpoints' lanes and returns; each
 * lane sends in event order with a few requests in flight and writes a round's outcomes in one
 * statement. Once an attempt fails, the lane stops starting new ones and puts the rest back (not
 * counted as attempts) to go after it, so a receiver that is down costs one time-out per round, not
 * one per event; lanes never wait on each other, so a hanging receiver delays only its own events.
 * A delivery is pending in the database until its outcome is written: one lost from a lane (a crash)
 * is sent again by the webhook sweeper, under the same webhook-id.
 */
@Processor(QUEUE_NAMES.webhooks)
export class WebhookDeliveryProcessor extends QueueConsumer {
  private readonly lanes = new Map<string, EndpointLane>();
  private stopping = false;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly sender: WebhookSender,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected override concurrency(): number {
    return CONCURRENCY;
  }

  async process(job: Job<JobPayloads['deliver-webhooks']>): Promise<void> {
    const { environmentId, deliveryIds } = job.data;
    const sends = await this.deliveries.forSending(environmentId, deliveryIds);
    for (const group of groupBy(sends, (send) => send.endpoint.id).values()) {
      const endpoint = group[0].endpoint;
      if (!endpoint.enabled) {
        await this.deliveries.cancelPending(environmentId, endpoint.id, this.clock.now());
        webhookAttempts.inc({ outcome: 'canceled' }, group.length);
        continue;
      }
      if (this.stopping) {
        await this.putBack(environmentId, group, 0);
        continue;
      }
      let lane = this.lanes.get(endpoint.id);
      if (!lane) this.lanes.set(endpoint.id, (lane = new EndpointLane(endpoint, LANE_CAPACITY)));
      const refused = lane.add(group);
      this.start(lane);
      await this.putBack(environmentId, refused, FULL_LANE_WAIT_MS);
    }
  }

  /** Lets the lanes finish the requests in flight; what still waits goes back to the queue. */
  override async beforeApplicationShutdown(): Promise<void> {
    await super.beforeApplicationShutdown();
    this.stopping = true;
    await Promise.all([...this.lanes.values()].map((lane) => lane.running ?? Promise.resolve()));
    for (const lane of this.lanes.values()) await this.putBack(lane.endpoint.environmentId, lane.drain(), 0);
    this.lanes.clear();
  }

  private start(lane: EndpointLane): void {
    lane.running ??= this.run(lane)
      .catch((error: unknown) => {
        // The deliveries stay pending in the database: the sweeper hands them over again.
        this.logger.warn({ err: error, endpointId: lane.endpoint.id }, 'webhook lane failed');
        lane.drain();
      })
      .finally(() => {
        lane.running = undefined;
        if (lane.idle) this.lanes.delete(lane.endpoint.id);
        else if (!this.stopping) this.start(lane);
      });
  }

  private async run(lane: EndpointLane): Promise<void> {
    const environmentId = lane.endpoint.environmentId;
    while (!this.stopping) {
      const batch = lane.take(BATCH_SIZE);
      if (batch.length === 0) return;
      try {
        const { attempted, unsent } = await this.sendInOrder(batch);
        const waitMs = await this.settle(environmentId, lane.endpoint.id, attempted);
        if (waitMs !== undefined) await this.putBack(environmentId, [...unsent, ...lane.drain()], waitMs);
      } finally {
        lane.settled(batch);
      }
    }
  }

  /** Up to SENDS_PER_ENDPOINT requests at once, started in order; none is started after a failure. */
  private async sendInOrder(batch: WebhookSend[]): Promise<{ attempted: Attempted[]; unsent: WebhookSend[] }> {
    const answers: (AttemptAnswer | undefined)[] = batch.map(() => undefined);
    let next = 0;
    let failed = false;
    const sender = async () => {
      while (!failed && next < batch.length) {
        const index = next++;
        const answer = await this.sender.send(batch[index], this.clock.now());
        webhookAttemptDuration.observe(answer.durationMs / 1000);
        answers[index] = answer;
        if (!answer.ok) failed = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(SENDS_PER_ENDPOINT, batch.length) }, sender));
    const attempted: Attempted[] = [];
    const unsent: WebhookSend[] = [];
    batch.forEach((send, index) => {
      const answer = answers[index];
      if (answer) attempted.push({ send, answer });
      else unsent.push(send);
    });
    return { attempted, unsent };
  }

  /**
   * Writes a round's outcomes and schedules the retries. Returns the wait before the endpoint's next
   * attempt when one failed (0 when the endpoint was turned off and its deliveries canceled).
   */
  private async settle(environmentId: string, endpointId: string, attempted: Attempted[]): Promise<number | undefined> {
    const now = this.clock.now();
    const failures = attempted.filter(({ answer }) => !answer.ok);
    const failingSince = await this.endpoints.recordAttempt(environmentId, endpointId, failures.length === 0, now);
    const gone = failures.some(({ answer }) => answer.statusCode === 410);
    const failingTooLong = failingSince !== null && now.getTime() - failingSince.getTime() >= FAILING_LIMIT_MS;
    const outcomes = attempted.map((attempt) => outcomeOf(attempt, gone || failingTooLong, now));
    const written = new Set(await this.deliveries.recordResults(environmentId, outcomes, now));
    for (const { metric } of outcomes) webhookAttempts.inc({ outcome: metric });
    const retries = outcomes.filter((outcome) => outcome.retryInMs !== undefined && written.has(outcome.delivery.id));
    for (const [waitMs, group] of groupBy(retries, (outcome) => outcome.retryInMs!))
      await this.schedule(
        environmentId,
        group.map((outcome) => outcome.delivery.id),
        waitMs,
      );
    if (gone || failingTooLong) {
      await this.disable(environmentId, endpointId, gone, now);
      return 0;
    }
    if (failures.length === 0) return undefined;
    return Math.min(...outcomes.filter((outcome) => outcome.metric !== 'succeeded').map((o) => o.retryInMs ?? 0));
  }

  private async disable(environmentId: string, endpointId: string, gone: boolean, now: Date): Promise<void> {
    const reason = gone ? 'gone' : 'failing';
    const detail = gone ? 'The endpoint answered HTTP 410 Gone' : 'The endpoint has not accepted an event for 5 days';
    if (await this.endpoints.disable(environmentId, endpointId, detail)) {
      webhookEndpointsDisabled.inc({ reason });
      this.logger.warn({ environmentId, endpointId, reason: detail }, 'webhook endpoint disabled');
    }
    await this.deliveries.cancelPending(environmentId, endpointId, now);
  }

  /** Deliveries not tried, due again after `waitMs` (their attempts unchanged), in one write and one job. */
  private async putBack(environmentId: string, sends: WebhookSend[], waitMs: number): Promise<void> {
    if (sends.length === 0) return;
    const now = this.clock.now();
    const nextAttemptAt = new Date(now.getTime() + waitMs);
    const result: AttemptResult = {
      status: 'pending',
      nextAttemptAt,
      statusCode: null,
      durationMs: null,
      error: null,
      counted: false,
    };
    const kept = await this.deliveries.recordResults(
      environmentId,
      sends.map(({ delivery }) => ({ delivery, result })),
      now,
    );
    await this.schedule(environmentId, kept, waitMs);
  }

  private async schedule(environmentId: string, deliveryIds: string[], delayMs: number): Promise<void> {
    if (deliveryIds.length === 0) return;
    // A lost entry is found by the webhook sweeper once the deliveries are overdue.
    await this.queue
      .add('deliver-webhooks', { environmentId, deliveryIds }, { delay: delayMs })
      .catch((error: unknown) =>
        this.logger.warn({ err: error, deliveryIds }, 'webhook retry enqueue failed; left to the webhook sweeper'),
      );
  }
}
