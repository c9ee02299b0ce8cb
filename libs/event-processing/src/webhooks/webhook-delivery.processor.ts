import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { Clock, webhookAttemptDuration, webhookAttempts, webhookEndpointsDisabled } from '#common';
import {
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type AttemptResult,
  type WebhookEndpointRow,
  type WebhookSend,
} from '#dal';
import { QUEUE_NAMES, type JobPayloads } from '../queue/job-catalogue.js';
import { JobQueue } from '../queue/job-queue.service.js';
import { QueueConsumer } from '../queue/queue-consumer.js';
import { QueuedWebhookDispatch } from '../queue/queued-webhook-dispatch.js';
import { retryAfterMs, retryWaitMs } from './retry-schedule.js';
import { SendSlots } from './send-slots.js';
import { WebhookSender, type AttemptAnswer } from './webhook-sender.js';

/** Jobs only wake their endpoints' lanes: a few at once per worker are plenty. */
const CONCURRENCY = 8;
/** Deliveries claimed, sent, then written in one statement, per round of a lane. */
const BATCH_SIZE = 256;
/** Added to a round's longest duration for its claim. */
const LEASE_MARGIN_MS = 5_000;
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

/** An endpoint's lane in this process. */
interface Lane {
  environmentId: string;
  endpointId: string;
  /** The loop sending the endpoint's due deliveries, while there is one. */
  running?: Promise<void>;
  /** Woken while running: the loop claims again before it ends. */
  woken: boolean;
  /** After a failed attempt, no new round starts before this time (a wake-up is queued for it). */
  pausedUntil: number;
}

/** What the overlapping rounds of one run of a lane share. */
interface LaneFlow {
  slots: SendSlots;
  /** An attempt failed: no round starts another request, and none is claimed after the current ones. */
  failed: boolean;
  /** The wait a failed round chose: later rounds put back what they had not started for as long. */
  pauseMs?: number;
  /** Settles once the last round so far has written its outcomes (never rejects). */
  written: Promise<void>;
  /** A round's write failed: the lane ends with it. */
  error?: { error: unknown };
}

/**
 * Sends webhook deliveries. A job only wakes its endpoints' lanes; a lane claims the endpoint's due
 * deliveries from the database in rounds, oldest first, sends each round with a few requests in
 * flight and writes its outcomes in one statement. A backlog waits in the database, not in memory or
 * the queue. Once an attempt fails the lane starts no new request, puts the rest of the round back
 * (not counted as attempts) and pauses until that attempt's retry, so a receiver that is down costs
 * one time-out per round, not one per event; lanes never wait on each other, so a hanging receiver
 * delays only its own events. A claimed delivery is leased: if its process dies it is due again when
 * the lease ends and the webhook sweeper wakes its lane (same webhook-id).
 */
@Processor(QUEUE_NAMES.webhooks)
export class WebhookDeliveryProcessor extends QueueConsumer {
  private readonly lanes = new Map<string, Lane>();
  private readonly resumeTimers = new Set<NodeJS.Timeout>();
  private stopping = false;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly sender: WebhookSender,
    private readonly queue: JobQueue,
    private readonly dispatch: QueuedWebhookDispatch,
    private readonly clock: Clock,
  ) {
    super();
  }

  override onApplicationBootstrap(): void {
    super.onApplicationBootstrap();
    this.dispatch.useLocalLanes({
      wake: (environmentId, endpointIds) => {
        if (this.stopping) return false;
        for (const endpointId of endpointIds) this.wake(environmentId, endpointId);
        return true;
      },
    });
  }

  /** No request of a round starts later than this after its claim: a round ends within twice the time-out. */
  private get roundStartLimitMs(): number {
    return this.config.webhookTimeoutMs;
  }

  /** A round's claim: the longest a round takes, and a margin (a dead process's claims are due again after it). */
  private get leaseMs(): number {
    return this.roundStartLimitMs + this.config.webhookTimeoutMs + LEASE_MARGIN_MS;
  }

  protected override concurrency(): number {
    return CONCURRENCY;
  }

  async process(job: Job<JobPayloads['deliver-webhooks']>): Promise<void> {
    const { environmentId, deliveryIds = [], endpointIds } = job.data;
    for (const endpointId of endpointIds ?? (await this.deliveries.endpointsOf(environmentId, deliveryIds)))
      this.wake(environmentId, endpointId);
  }

  /** Lets the lanes finish their rounds in flight; what is left stays due in the database. */
  override async beforeApplicationShutdown(): Promise<void> {
    this.dispatch.useLocalLanes(undefined);
    await super.beforeApplicationShutdown();
    this.stopping = true;
    for (const timer of this.resumeTimers) clearTimeout(timer);
    await Promise.all([...this.lanes.values()].map((lane) => lane.running ?? Promise.resolve()));
    this.lanes.clear();
  }

  private wake(environmentId: string, endpointId: string): void {
    if (this.stopping) return;
    let lane = this.lanes.get(endpointId);
    if (!lane) this.lanes.set(endpointId, (lane = { environmentId, endpointId, woken: false, pausedUntil: 0 }));
    lane.woken = true;
    if (lane.running || lane.pausedUntil > this.clock.now().getTime()) return;
    const started = lane;
    started.running = this.run(started)
      .catch((error: unknown) => {
        // The claimed deliveries stay pending: due again when their lease ends.
        this.logger.warn({ err: error, endpointId }, 'webhook lane failed');
      })
      .finally(() => {
        started.running = undefined;
        if (started.pausedUntil <= this.clock.now().getTime()) this.lanes.delete(endpointId);
      });
  }

  /** No round before `waitMs`; then the lane resumes here (the queued wake-up is for another process). */
  private pause(lane: Lane, waitMs: number): void {
    lane.pausedUntil = this.clock.now().getTime() + waitMs;
    const timer = setTimeout(() => {
      this.resumeTimers.delete(timer);
      lane.pausedUntil = 0;
      this.wake(lane.environmentId, lane.endpointId);
    }, waitMs);
    timer.unref();
    this.resumeTimers.add(timer);
  }

  /**
   * The lane's rounds overlap: once a round has started all its requests, the next one is claimed and
   * its requests wait for slots freed by the first one's (its deliveries stay leased until written, so
   * no round takes them twice). Rounds write their outcomes one after another, in order; a failure
   * stops every round from starting requests, and what they had not started is put back for the pause.
   */
  private async run(lane: Lane): Promise<void> {
    const { environmentId, endpointId } = lane;
    const flow: LaneFlow = {
      slots: new SendSlots(this.config.webhookConcurrency),
      failed: false,
      written: Promise.resolve(),
    };
    const rounds = new Set<Promise<void>>();
    try {
      while (!this.stopping && !flow.failed && !flow.error) {
        lane.woken = false;
        const endpoint = await this.endpoints.find(environmentId, endpointId);
        if (!endpoint) return;
        const now = this.clock.now();
        if (!endpoint.enabled) {
          await Promise.all(rounds);
          await this.deliveries.cancelPending(environmentId, endpointId, now);
          return;
        }
        const claimed = await this.deliveries.claimDue(
          environmentId,
          endpointId,
          now,
          new Date(now.getTime() + this.leaseMs),
          BATCH_SIZE,
        );
        if (claimed.length === 0) {
          await Promise.all(rounds);
          if (lane.woken) continue;
          return;
        }
        let allStarted!: () => void;
        const started = new Promise<void>((resolve) => (allStarted = resolve));
        const round: Promise<void> = this.round(
          lane,
          flow,
          claimed.map((row) => ({ ...row, endpoint })),
          allStarted,
        )
          .catch((error: unknown) => void (flow.error ??= { error }))
          .finally(() => rounds.delete(round));
        rounds.add(round);
        await Promise.race([started, round]);
      }
    } finally {
      await Promise.all(rounds);
    }
    // The deliveries of a round whose outcomes were not written stay leased: due again when the lease ends.
    if (flow.error) throw flow.error.error;
  }

  /**
   * One round: its requests in event order as slots free up, none once an attempt of the lane failed or
   * the start limit has passed since the claim (a slow receiver: the rest goes in the next round); then, after
   * the previous round's, its outcomes, and the pause when an attempt failed.
   */
  private async round(lane: Lane, flow: LaneFlow, batch: WebhookSend[], allStarted: () => void): Promise<void> {
    const answers: (AttemptAnswer | undefined)[] = batch.map(() => undefined);
    const requests: Promise<void>[] = [];
    // Counted from the claim, so that the round ends within its lease even when it waited for slots.
    const claimedAt = performance.now();
    for (const [index, send] of batch.entries()) {
      await flow.slots.acquire();
      if (flow.failed || performance.now() - claimedAt >= this.roundStartLimitMs) {
        flow.slots.release();
        break;
      }
      requests.push(
        this.sender
          .send(send, this.clock.now())
          .then((answer) => {
            webhookAttemptDuration.observe(answer.durationMs / 1000);
            answers[index] = answer;
            if (!answer.ok) flow.failed = true;
          })
          .finally(() => flow.slots.release()),
      );
    }
    allStarted();
    const sent = Promise.all(requests);
    const previous = flow.written;
    const written = sent.then(() => previous).then(() => this.finishRound(lane, flow, batch, answers));
    // The next round writes after this one, whether or not this one's write failed.
    flow.written = written.catch(() => undefined);
    await written;
  }

  private async finishRound(
    lane: Lane,
    flow: LaneFlow,
    batch: WebhookSend[],
    answers: (AttemptAnswer | undefined)[],
  ): Promise<void> {
    const attempted: Attempted[] = [];
    const unsent: WebhookSend[] = [];
    batch.forEach((send, index) => {
      const answer = answers[index];
      if (answer) attempted.push({ send, answer });
      else unsent.push(send);
    });
    const waitMs = await this.settle(batch[0].endpoint, attempted);
    if (waitMs !== undefined) flow.pauseMs = waitMs;
    await this.putBack(lane.environmentId, unsent, flow.pauseMs ?? 0);
    if (waitMs) {
      this.pause(lane, waitMs);
      await this.wakeLater(lane.environmentId, [lane.endpointId], waitMs);
    }
  }

  /**
   * Writes a round's outcomes and schedules the retries. Returns the wait before the endpoint's next
   * attempt when one failed (0 when the endpoint was turned off and its deliveries canceled).
   */
  private async settle(endpoint: WebhookEndpointRow, attempted: Attempted[]): Promise<number | undefined> {
    const { environmentId, id: endpointId } = endpoint;
    const now = this.clock.now();
    const failures = attempted.filter(({ answer }) => !answer.ok);
    // A round without failures on an endpoint that was not failing when the round read it changes nothing.
    const failingSince =
      failures.length === 0 && endpoint.failingSince === null
        ? null
        : await this.endpoints.recordAttempt(environmentId, endpointId, failures.length === 0, now);
    const gone = failures.some(({ answer }) => answer.statusCode === 410);
    const failingTooLong = failingSince !== null && now.getTime() - failingSince.getTime() >= FAILING_LIMIT_MS;
    const outcomes = attempted.map((attempt) => outcomeOf(attempt, gone || failingTooLong, now));
    const written = new Set(await this.deliveries.recordResults(environmentId, outcomes, now));
    for (const { metric } of outcomes) webhookAttempts.inc({ outcome: metric });
    const retries = outcomes.filter((outcome) => outcome.retryInMs !== undefined && written.has(outcome.delivery.id));
    if (retries.length > 0)
      await this.wakeLater(environmentId, [endpointId], Math.min(...retries.map((outcome) => outcome.retryInMs!)));
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

  /** Deliveries claimed but not tried, due again after `waitMs` (their attempts unchanged), in one write. */
  private async putBack(environmentId: string, sends: WebhookSend[], waitMs: number): Promise<void> {
    if (sends.length === 0) return;
    const now = this.clock.now();
    const result: AttemptResult = {
      status: 'pending',
      nextAttemptAt: new Date(now.getTime() + waitMs),
      statusCode: null,
      durationMs: null,
      error: null,
      counted: false,
    };
    await this.deliveries.recordResults(
      environmentId,
      sends.map(({ delivery }) => ({ delivery, result })),
      now,
    );
  }

  private async wakeLater(environmentId: string, endpointIds: string[], delayMs: number): Promise<void> {
    // A lost entry is found by the webhook sweeper once the deliveries are overdue.
    await this.queue
      .add('deliver-webhooks', { environmentId, endpointIds }, { delay: delayMs })
      .catch((error: unknown) =>
        this.logger.warn({ err: error, endpointIds }, 'webhook retry enqueue failed; left to the webhook sweeper'),
      );
  }
}
