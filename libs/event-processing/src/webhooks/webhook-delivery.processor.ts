import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { Clock, groupBy, webhookAttemptDuration, webhookAttempts, webhookEndpointsDisabled } from '#common';
import { WebhookDeliveryRepository, WebhookEndpointRepository, type AttemptResult, type WebhookSend } from '#dal';
import { QUEUE_NAMES, type JobPayloads } from '../queue/job-catalogue.js';
import { JobQueue } from '../queue/job-queue.service.js';
import { QueueConsumer } from '../queue/queue-consumer.js';
import { retryAfterMs, retryWaitMs } from './retry-schedule.js';
import { WebhookSender, type AttemptAnswer } from './webhook-sender.js';

/** Webhook jobs run at once per worker: they wait on receivers, not on the CPU. */
const CONCURRENCY = 32;
/** Jobs of one endpoint sending at once in this process; more wait a second, so a slow receiver holds few slots. */
const MAX_SENDING_PER_ENDPOINT = 2;
const BUSY_ENDPOINT_WAIT_MS = 1_000;
/** An endpoint without a success for this long is turned off. */
const FAILING_LIMIT_MS = 5 * 24 * 60 * 60 * 1000;

/**
 * Sends webhook deliveries. Each endpoint's deliveries of a job go one after the other in the order
 * their events happened; once one fails, the rest of that endpoint's are put back (not counted as
 * attempts) to go after it, so a receiver that is down costs one timeout per job, not one per event.
 * Endpoints are sent to in parallel, and one endpoint holds at most MAX_SENDING_PER_ENDPOINT of the
 * worker's slots, so a hanging receiver never delays another's events.
 */
@Processor(QUEUE_NAMES.webhooks)
export class WebhookDeliveryProcessor extends QueueConsumer {
  private readonly sending = new Map<string, number>();

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
    const byEndpoint = groupBy(sends, (send) => send.endpoint.id);
    await Promise.all([...byEndpoint.values()].map((group) => this.sendInOrder(environmentId, group)));
  }

  private async sendInOrder(environmentId: string, group: WebhookSend[]): Promise<void> {
    const endpoint = group[0].endpoint;
    if (!endpoint.enabled) {
      await this.deliveries.cancelPending(environmentId, endpoint.id, this.clock.now());
      webhookAttempts.inc({ outcome: 'canceled' }, group.length);
      return;
    }
    const busy = this.sending.get(endpoint.id) ?? 0;
    if (busy >= MAX_SENDING_PER_ENDPOINT) return this.putBack(environmentId, group, BUSY_ENDPOINT_WAIT_MS);
    this.sending.set(endpoint.id, busy + 1);
    try {
      for (const [index, send] of group.entries()) {
        const waitMs = await this.attempt(environmentId, send);
        if (waitMs !== undefined) {
          await this.putBack(environmentId, group.slice(index + 1), waitMs);
          return;
        }
      }
    } finally {
      const left = (this.sending.get(endpoint.id) ?? 1) - 1;
      if (left > 0) this.sending.set(endpoint.id, left);
      else this.sending.delete(endpoint.id);
    }
  }

  /** Sends one delivery; returns the wait before the endpoint's next attempt when this one failed. */
  private async attempt(environmentId: string, send: WebhookSend): Promise<number | undefined> {
    const now = this.clock.now();
    const answer = await this.sender.send(send, now);
    webhookAttemptDuration.observe(answer.durationMs / 1000);
    const { delivery, endpoint } = send;
    const failingSince = await this.endpoints.recordAttempt(environmentId, endpoint.id, answer.ok, now);
    if (answer.ok) {
      await this.record(environmentId, send, answer, { status: 'succeeded', nextAttemptAt: null }, now);
      webhookAttempts.inc({ outcome: 'succeeded' });
      return undefined;
    }
    const gone = answer.statusCode === 410;
    const failingTooLong = failingSince !== null && now.getTime() - failingSince.getTime() >= FAILING_LIMIT_MS;
    if (gone || failingTooLong) {
      await this.record(environmentId, send, answer, { status: 'failed', nextAttemptAt: null }, now);
      const reason = gone ? 'gone' : 'failing';
      const detail = gone ? 'The endpoint answered HTTP 410 Gone' : 'The endpoint has not accepted an event for 5 days';
      if (await this.endpoints.disable(environmentId, endpoint.id, detail)) {
        webhookEndpointsDisabled.inc({ reason });
        this.logger.warn({ environmentId, endpointId: endpoint.id, reason: detail }, 'webhook endpoint disabled');
      }
      await this.deliveries.cancelPending(environmentId, endpoint.id, now);
      webhookAttempts.inc({ outcome: 'disabled' });
      return 0;
    }
    const scheduled = retryWaitMs(delivery.attempts + 1);
    if (scheduled === undefined) {
      await this.record(environmentId, send, answer, { status: 'failed', nextAttemptAt: null }, now);
      webhookAttempts.inc({ outcome: 'failed' });
      return 0;
    }
    const waitMs = Math.max(scheduled, retryAfterMs(answer.retryAfter, now) ?? 0);
    const nextAttemptAt = new Date(now.getTime() + waitMs);
    if (await this.record(environmentId, send, answer, { status: 'pending', nextAttemptAt }, now))
      await this.schedule(environmentId, [delivery.id], waitMs);
    webhookAttempts.inc({ outcome: 'retrying' });
    return waitMs;
  }

  private record(
    environmentId: string,
    send: WebhookSend,
    answer: AttemptAnswer,
    outcome: Pick<AttemptResult, 'status' | 'nextAttemptAt'>,
    now: Date,
  ): Promise<boolean> {
    return this.deliveries.recordResult(
      environmentId,
      send.delivery,
      { ...outcome, statusCode: answer.statusCode, durationMs: answer.durationMs, error: answer.error, counted: true },
      now,
    );
  }

  /** Deliveries not tried in this job, due again after `waitMs` (their attempts unchanged). */
  private async putBack(environmentId: string, group: WebhookSend[], waitMs: number): Promise<void> {
    if (group.length === 0) return;
    const now = this.clock.now();
    const nextAttemptAt = new Date(now.getTime() + waitMs);
    const kept: string[] = [];
    for (const { delivery } of group) {
      const result: AttemptResult = {
        status: 'pending',
        nextAttemptAt,
        statusCode: null,
        durationMs: null,
        error: null,
        counted: false,
      };
      if (await this.deliveries.recordResult(environmentId, delivery, result, now)) kept.push(delivery.id);
    }
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
