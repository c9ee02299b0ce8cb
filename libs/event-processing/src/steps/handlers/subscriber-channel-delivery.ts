import { Injectable } from '@nestjs/common';
import { AppConfig } from '#common';
import { type IntegrationRow, type NewMessageRow, type StoredChannelSettings } from '#dal';
import type { ProviderMessage } from '#providers';
import { record, type StepContext } from '../step-context.js';
import { outcome, type StepOutcome } from '../step-outcome.js';
import { ProviderSender } from '../provider-sender.js';
import { MESSAGE_ERROR_IDS } from '../message-error-ids.js';
import { conditionsChosen, conditionsRefusal } from '../integration-routing.js';
import { StepOverrides } from '../trigger-overrides.js';
import { messageRow, text, type EarlierDeliveries, type Rendered } from './channel-step.js';
import { sendWithin } from './send-within.js';

/** Sends of one job in flight at once (a subscriber may have many device tokens or chat entries). */
const PARALLEL_TARGETS = 10;
/** The provider retry of a chat or push job is a round over its undecided targets, not one target. */
const NEXT_ROUND = '*';

/** One delivery of a chat or push step: one subscriber channel entry (push: one device token of it). */
export interface DeliveryTarget {
  integration: IntegrationRow;
  /** Unique per job: the message row of this delivery. */
  deliveryKey: string;
}

/** What a channel that sends through the subscriber's channel credentials (chat, push) contributes. */
export interface SubscriberChannel<Target extends DeliveryTarget> {
  /** The providers of the channel: a subscriber entry of another provider is not this channel's. */
  providers: readonly string[];
  targetsOf(entry: StoredChannelSettings, integration: IntegrationRow): Target[];
  providerMessage(target: Target, rendered: Rendered, context: StepContext): ProviderMessage;
  /** The message row's columns naming the target. */
  targetFields(target: Target): Partial<NewMessageRow>;
  /** The provider refused the target as dead (an invalid device token). */
  onDeadTarget?(context: StepContext, target: Target): Promise<void>;
}

/** The step's outcome from its deliveries: success if any delivery succeeded. */
export function subscriberChannelOutcome(
  type: string,
  delivered: number,
  lastError: string,
  messages: NewMessageRow[],
): StepOutcome {
  if (delivered === 0)
    return outcome.failed(`All ${type} channels failed to send the message: ${lastError}`, { messages });
  return outcome.completed({ messages });
}

/**
 * chat and push: one delivery per subscriber channel entry whose integration is active (push: per
 * device token), may serve the message (its conditions pass) and is the one the trigger's
 * `integrationIdentifier` names, when it names one. A target an earlier run of the job already sent
 * to counts as delivered; one it failed for good stays failed.
 */
@Injectable()
export class SubscriberChannelDelivery {
  /** A round starts no send after this long, so a job with many slow targets holds its slot for about one timeout. */
  private readonly roundDeadlineMs: number;

  constructor(
    private readonly sender: ProviderSender,
    config: AppConfig,
  ) {
    this.roundDeadlineMs = config.providerTimeoutMs;
  }

  async deliver<Target extends DeliveryTarget>(
    context: StepContext,
    rendered: Rendered,
    earlier: EarlierDeliveries,
    channel: SubscriberChannel<Target>,
  ): Promise<StepOutcome> {
    const { job, subscriber } = context;
    const overrides = new StepOverrides(context.overrides ?? {}, job);
    const usable = this.usableIntegrations(context, overrides);
    if (!usable) return outcome.failed(context.details.at(-1)!.detail);
    const active = new Map(usable.map((row) => [row.id, row]));
    const targets = (subscriber?.channels ?? [])
      .filter((entry) => channel.providers.includes(entry.providerId) && active.has(entry._integrationId))
      .flatMap((entry) => channel.targetsOf(entry, active.get(entry._integrationId)!));
    if (targets.length === 0) {
      const missing = `Subscriber does not have a configured ${job.type} channel with an active integration`;
      record(context, { status: 'Warning', source: 'Credentials', detail: `${missing}: step skipped` });
      const row = messageRow(context, {
        status: 'warning',
        errorId: MESSAGE_ERROR_IDS.missingChannel,
        errorText: missing,
        content: text(rendered.content),
      });
      return outcome.skipped({ messages: [row] });
    }
    // Each run is one round: every target not decided by an earlier round is sent at once (bounded),
    // and those that failed retryably, or were not started before the deadline, get the next round.
    const round = job.providerRetry?.attempt ?? 1;
    const open = targets.filter(
      (target) => !earlier.sent.has(target.deliveryKey) && !earlier.failed.has(target.deliveryKey),
    );
    const results = await sendWithin(open, PARALLEL_TARGETS, this.roundDeadlineMs, (target) =>
      this.sender.send(
        channel.providerMessage(target, rendered, context),
        [target.integration],
        context.details,
        round > 1 ? { integrationId: target.integration.id, attempt: round } : undefined,
        overrides,
      ),
    );
    const messages: NewMessageRow[] = [];
    let delivered = targets.filter((target) => earlier.sent.has(target.deliveryKey)).length;
    let lastError = earlier.failed.size > 0 ? 'an earlier attempt failed' : '';
    let retryInMs: number | undefined;
    let postponed = false;
    for (const [index, sent] of results.entries()) {
      const target = open[index];
      if (!sent) {
        postponed = true;
        continue;
      }
      if (!sent.ok && sent.retry) {
        retryInMs = Math.max(retryInMs ?? 0, sent.retry.delayMs);
        continue;
      }
      const fields = {
        content: text(rendered.content),
        title: rendered.title === undefined ? null : text(rendered.title),
        deliveryKey: target.deliveryKey,
        ...channel.targetFields(target),
        providerId: target.integration.providerId,
      };
      if (sent.ok) {
        delivered++;
        messages.push(messageRow(context, { ...fields, status: 'sent', deliveredAt: [context.now.toISOString()] }));
      } else {
        lastError = sent.error;
        messages.push(
          messageRow(context, { ...fields, status: 'error', errorId: sent.errorId, errorText: sent.error }),
        );
        if (sent.invalidDeviceToken) await channel.onDeadTarget?.(context, target);
      }
    }
    // Targets never started come first: the next round runs at once with the same attempt number, so
    // every target is tried before any counts a retry (a target failing meanwhile may be called again).
    if (postponed || retryInMs !== undefined) {
      const next = postponed
        ? { integrationId: '', attempt: round, delayMs: 0 }
        : { integrationId: '', attempt: round + 1, delayMs: retryInMs! };
      return outcome.retry(context.now, NEXT_ROUND, next, { messages });
    }
    return subscriberChannelOutcome(job.type, delivered, lastError, messages);
  }

  /**
   * The active integrations this message may go through, each refusal or choice recorded; undefined
   * (the step fails) when `integrationIdentifier` names none of them: another environment's
   * integration is not found, and nothing is sent elsewhere.
   */
  private usableIntegrations(context: StepContext, overrides: StepOverrides): IntegrationRow[] | undefined {
    const active = context.integrations ?? [];
    const wanted = overrides.integrationIdentifier;
    if (wanted !== undefined && !active.some((row) => row.identifier === wanted)) {
      record(context, {
        status: 'Failed',
        source: 'Payload',
        detail: `Integration ${wanted} named by ${overrides.integrationIdentifierPath} is not an active ${context.job.type} integration of this environment: not sent`,
      });
      return undefined;
    }
    // Only the integrations of the subscriber's entries are candidates (and get details).
    const entries = new Set((context.subscriber?.channels ?? []).map((entry) => entry._integrationId));
    const candidates = active.filter(
      (row) => entries.has(row.id) && (wanted === undefined || row.identifier === wanted),
    );
    // A run resuming a provider retry recorded these choices already.
    const decided = Boolean(context.job.providerRetry);
    return candidates.filter((integration) => {
      const refusal = wanted === undefined ? conditionsRefusal(context, integration) : undefined;
      const chosen = refusal || decided ? undefined : conditionsChosen(context, integration);
      if (refusal && !decided)
        record(context, { status: 'Warning', source: 'Internal', providerId: integration.providerId, detail: refusal });
      if (chosen) record(context, chosen);
      return !refusal;
    });
  }
}
