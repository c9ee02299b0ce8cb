import { Injectable } from '@nestjs/common';
import { SubscriberRepository } from '#dal';
import { PUSH_PROVIDER_IDS } from '#providers';
import { record, type StepContext } from '../step-context.js';
import type { StepOutcome } from '../step-outcome.js';
import { text, ChannelPreparation } from './channel-step.js';
import type { StepHandler } from './step-handler.js';
import {
  SubscriberChannelDelivery,
  type DeliveryTarget,
  type SubscriberChannel,
} from './subscriber-channel-delivery.js';

interface PushTarget extends DeliveryTarget {
  deviceToken: string;
}

/** A device token shown in details: enough to recognise it, too little to reuse it. */
const maskToken = (token: string) => (token.length > 8 ? `…${token.slice(-6)}` : '…');

/** push: one delivery per device token of each subscriber push entry whose integration is active. */
@Injectable()
export class PushStep implements StepHandler {
  readonly type = 'push';
  readonly claims = true;

  private readonly channel: SubscriberChannel<PushTarget> = {
    providers: PUSH_PROVIDER_IDS,
    targetsOf: (entry, integration) =>
      (entry.credentials?.deviceTokens ?? []).map((deviceToken) => ({
        integration,
        deviceToken,
        deliveryKey: `${integration.id}:${deviceToken}`,
      })),
    providerMessage: (target, rendered, context) => ({
      channel: 'push',
      deviceToken: target.deviceToken,
      title: rendered.title === undefined ? '' : text(rendered.title),
      content: text(rendered.content),
      payload: context.payload ?? {},
      subscriberId: context.subscriber!.subscriberId,
      transactionId: context.job.transactionId,
    }),
    targetFields: (target) => ({ deviceTokens: [target.deviceToken] }),
    onDeadTarget: (context, target) => this.dropDeviceToken(context, target),
  };

  constructor(
    private readonly preparation: ChannelPreparation,
    private readonly delivery: SubscriberChannelDelivery,
    private readonly subscribers: SubscriberRepository,
  ) {}

  async start(context: StepContext): Promise<StepOutcome> {
    const prepared = await this.preparation.prepare(context);
    if ('done' in prepared) return prepared.done;
    return this.delivery.deliver(context, prepared.rendered, prepared.earlier, this.channel);
  }

  resume(context: StepContext): Promise<StepOutcome> {
    return this.start(context);
  }

  /** The provider says the token is dead: later sends would fail the same way, so it leaves the subscriber. */
  private async dropDeviceToken(context: StepContext, target: PushTarget): Promise<void> {
    const { job } = context;
    const { integration, deviceToken } = target;
    const removed = await this.subscribers.removeDeviceToken(
      job.environmentId,
      job.subscriberId,
      integration.id,
      deviceToken,
    );
    record(context, {
      status: 'Warning',
      source: 'Credentials',
      providerId: integration.providerId,
      detail: removed
        ? `Device token ${maskToken(deviceToken)} was rejected by ${integration.identifier} as invalid or expired and was removed from the subscriber`
        : `Device token ${maskToken(deviceToken)} was rejected by ${integration.identifier} as invalid or expired (already removed from the subscriber)`,
    });
  }
}
