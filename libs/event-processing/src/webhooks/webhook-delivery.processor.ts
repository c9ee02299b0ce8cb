import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { Clock, groupBy, webhookAttemptDuration, webhookAttempts, webhookEndpointsDisabled } from '#common';
import {
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type AttemptResult,
  type DeliveryLease,
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
/**
 * Deliveries handed over from commits that a lane holds in memory at most; beyond it, commits write
 * theirs unleased and the lane claims them from the database.
 */
const MAX_HANDED_OVER = 2 * BATCH_SIZE;
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

/** Deliveries sent together, with the end of their lease. */
interface Round {
  batch: WebhookSend[];
  leaseUntil: Date;
}

/** An endpoint's lane in this process. */
interface Lane {
  environmentId: string;
  endpointId: string;
  /** The loop sending the endpoint's due deliveries, while there is one. */
  running?: Promise<void>;
  /** Woken for deliveries waiting in the database: the loop claims before it takes a handed-over round or ends. */
  woken: boolean;
  /** Deliveries this process's commits wrote leased to it, one round per commit, oldest first. */
  handedOver: Round[];
  handedOverCount: number;
  /** Tells a loop waiting for its rounds to end that work came in (a wake-up, a hand-over). */
  arrived?: () => void;
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
 * flight and writes its outcomes in one statement. The deliveries a commit of this process writes
 * (a step's message.sent) come leased to it and are handed over from memory, without a claim; a lane
 * holds a bounded number, and a backlog beyond it waits in the database, not in memory or the queue. Once an attempt fails the lane starts no new request, puts the rest of the round back
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
      lease: (environmentId, endpointIds) => this.lease(endpointIds),
      handOver: (environmentId, sends) => this.handOver(environmentId, sends),
    });
  }

  /** A commit's leased deliveries, a round per endpoint, each lane started unless it runs or is paused. */
  private handOver(environmentId: string, sends: WebhookSend[]): boolean {
    if (this.stopping) return false;
    for (const [endpointId, batch] of groupBy(sends, (send) => send.endpoint.id)) {
      const lane = this.laneOf(environmentId, endpointId);
      lane.handedOver.push({ batch, leaseUntil: batch[0].delivery.leasedUntil! });
      lane.handedOverCount += batch.length;
      this.start(lane);
    }
    return true;
  }

  /** The endpoints whose lanes take a commit's deliveries from memory now: not paused, not holding too many. */
  private lease(endpointIds: string[]): DeliveryLease | undefined {
    if (this.stopping) return undefined;
    const now = this.clock.now().getTime();
    const taking = endpointIds.filter((endpointId) => {
      const lane = this.lanes.get(endpointId);
      return !lane || (lane.pausedUntil <= now && lane.handedOverCount < MAX_HANDED_OVER);
    });
    return taking.length > 0 ? { endpointIds: new Set(taking), until: new Date(now + this.leaseMs) } : undefined;
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
    // A paused lane's handed-over deliveries go back to the database, due when its pause ends.
    const now = this.clock.now().getTime();
    await Promise.all(
      [...this.lanes.values()].map((lane) =>
        this.putBackHandedOver(lane, Math.max(0, lane.pausedUntil - now)).catch((error: unknown) =>
          this.logger.warn({ err: error, endpointId: lane.endpointId }, 'webhook deliveries left leased at shutdown'),
        ),
      ),
    );
    this.lanes.clear();
  }

  private laneOf(environmentId: string, endpointId: string): Lane {
    let lane = this.lanes.get(endpointId);
    if (!lane) {
      lane = { environmentId, endpointId, woken: false, handedOver: [], handedOverCount: 0, pausedUntil: 0 };
      this.lanes.set(endpointId, lane);
    }
    return lane;
  }

  private wake(environmentId: string, endpointId: string): void {
    if (this.stopping) return;
    const lane = this.laneOf(environmentId, endpointId);
    lane.woken = true;
    this.start(lane);
  }

  /** Runs the lane's loop unless it runs (it is told) or is paused; once it ends, again if work came in meanwhile. */
  private start(lane: Lane): void {
    lane.arrived?.();
    if (lane.running || lane.pausedUntil > this.clock.now().getTime()) return;
    lane.running = this.run(lane)
      .catch((error: unknown) => {
        // The claimed deliveries stay pending: due again when their lease ends.
        this.logger.warn({ err: error, endpointId: lane.endpointId }, 'webhook lane failed');
      })
      .finally(() => {
        lane.running = undefined;
        if (lane.pausedUntil > this.clock.now().getTime()) return;
        if (!this.stopping && (lane.woken || lane.handedOver.length > 0)) this.start(lane);
        else this.lanes.delete(lane.endpointId);
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
   * The lane's rounds overlap: once a round has started all its requests, the next one is taken (handed
   * over, or claimed) and its requests wait for slots freed by the first one's (its deliveries stay
   * leased until written, so no round takes them twice). Rounds write their outcomes one after another, in order; a failure
   * stops every round from starting requests, and what they had not started is put back for the pause.
   */
  private async run(lane: Lane): Promise<void> {
    const flow: LaneFlow = {
      slots: new SendSlots(this.config.webhookConcurrency),
      failed: false,
      written: Promise.resolve(),
    };
    const rounds = new Set<Promise<void>>();
    try {
      while (!this.stopping && !flow.failed && !flow.error) {
        const next = await this.nextRound(lane, rounds);
        if (!next) return;
        let allStarted!: () => void;
        const started = new Promise<void>((resolve) => (allStarted = resolve));
        // No request starts so late that it could outlast the lease.
        const startBy =
          performance.now() +
          (next.leaseUntil.getTime() - this.clock.now().getTime()) -
          (this.leaseMs - this.roundStartLimitMs);
        const round: Promise<void> = this.round(lane, flow, next.batch, startBy, allStarted)
          .catch((error: unknown) => void (flow.error ??= { error }))
          .finally(() => rounds.delete(round));
        rounds.add(round);
        await Promise.race([started, round]);
      }
    } finally {
      await Promise.all(rounds);
      // Stopping, or an attempt failed: what was handed over and not started waits in the database.
      if (!flow.error && (this.stopping || flow.failed)) await this.putBackHandedOver(lane, flow.pauseMs ?? 0);
    }
    // The deliveries of a round whose outcomes were not written stay leased: due again when the lease ends.
    if (flow.error) throw flow.error.error;
  }

  /**
   * The lane's next round: when woken, what waits in the database (claimed); otherwise the commits'
   * handed-over deliveries. Undefined once the rounds in flight ended with nothing more come in, or
   * when the endpoint is gone or turned off.
   */
  private async nextRound(lane: Lane, rounds: Set<Promise<void>>): Promise<Round | undefined> {
    const { environmentId, endpointId } = lane;
    for (;;) {
      if (!lane.woken) {
        if (lane.handedOver.length > 0) return this.takeHandedOver(lane);
        const arrived = new Promise<void>((resolve) => (lane.arrived = resolve));
        const ended = await Promise.race([Promise.all(rounds).then(() => true), arrived.then(() => false)]);
        lane.arrived = undefined;
        if (ended && !lane.woken && lane.handedOver.length === 0) return undefined;
        continue;
      }
      lane.woken = false;
      const endpoint = await this.endpoints.find(environmentId, endpointId);
      if (!endpoint) return this.dropHandedOver(lane);
      const now = this.clock.now();
      if (!endpoint.enabled) {
        await Promise.all(rounds);
        await this.deliveries.cancelPending(environmentId, endpointId, now);
        return this.dropHandedOver(lane);
      }
      const leaseUntil = new Date(now.getTime() + this.leaseMs);
      const claimed = await this.deliveries.claimDue(environmentId, endpointId, now, leaseUntil, BATCH_SIZE);
      if (claimed.length > 0) return { batch: claimed.map((row) => ({ ...row, endpoint })), leaseUntil };
    }
  }

  /**
   * The oldest commit's deliveries waiting, with the next ones' while the round stays within BATCH_SIZE:
   * one write of outcomes for several commits under load.
   */
  private takeHandedOver(lane: Lane): Round {
    const first = lane.handedOver.shift()!;
    const batch = [...first.batch];
    let { leaseUntil } = first;
    while (lane.handedOver.length > 0 && batch.length + lane.handedOver[0].batch.length <= BATCH_SIZE) {
      const next = lane.handedOver.shift()!;
      batch.push(...next.batch);
      if (next.leaseUntil < leaseUntil) leaseUntil = next.leaseUntil;
    }
    lane.handedOverCount -= batch.length;
    return { batch, leaseUntil };
  }

  /** The endpoint is gone or turned off: its handed-over deliveries were deleted or canceled with it. */
  private dropHandedOver(lane: Lane): undefined {
    lane.handedOver = [];
    lane.handedOverCount = 0;
    return undefined;
  }

  private async putBackHandedOver(lane: Lane, waitMs: number): Promise<void> {
    const sends = lane.handedOver.flatMap((round) => round.batch);
    this.dropHandedOver(lane);
    await this.putBack(lane.environmentId, sends, waitMs);
  }

  /**
   * One round: its requests in event order as slots free up, none once an attempt of the lane failed or
   * the start limit has passed since the claim (a slow receiver: the rest goes in the next round); then, after
   * the previous round's, its outcomes, and the pause when an attempt failed.
   */
  private async round(
    lane: Lane,
    flow: LaneFlow,
    batch: WebhookSend[],
    startBy: number,
    allStarted: () => void,
  ): Promise<void> {
    const answers: (AttemptAnswer | undefined)[] = batch.map(() => undefined);
    const requests: Promise<void>[] = [];
    for (const [index, send] of batch.entries()) {
      await flow.slots.acquire();
      if (flow.failed || performance.now() >= startBy) {
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
    // Put back past the start limit (a slow receiver): the lane claims them again.
    if (unsent.length > 0) {
      lane.woken = true;
      lane.arrived?.();
    }
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
