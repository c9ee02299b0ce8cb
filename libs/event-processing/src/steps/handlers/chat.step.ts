import { Injectable } from '@nestjs/common';
import { CHAT_PROVIDER_IDS, type ChatChannelCredentials } from '#providers';
import type { StepContext } from '../step-context.js';
import type { StepOutcome } from '../step-outcome.js';
import { text, ChannelPreparation } from './channel-step.js';
import type { StepHandler } from './step-handler.js';
import {
  SubscriberChannelDelivery,
  type DeliveryTarget,
  type SubscriberChannel,
} from './subscriber-channel-delivery.js';

/** Chat providers that address the subscriber by phone instead of a webhook URL. */
const PHONE_CHAT_PROVIDERS = new Set(['whatsapp-business']);

interface ChatTarget extends DeliveryTarget {
  webhookUrl?: string;
  channelCredentials: ChatChannelCredentials;
}

const CHAT: SubscriberChannel<ChatTarget> = {
  providers: CHAT_PROVIDER_IDS,
  targetsOf: (entry, integration) => {
    const { webhookUrl, deviceTokens: _tokens, ...channelCredentials } = entry.credentials ?? {};
    if (!webhookUrl && !PHONE_CHAT_PROVIDERS.has(entry.providerId)) return [];
    return [{ integration, webhookUrl, channelCredentials, deliveryKey: `${integration.id}` }];
  },
  providerMessage: (target, rendered, context) => ({
    channel: 'chat',
    webhookUrl: target.webhookUrl ?? '',
    content: text(rendered.content),
    payload: context.payload ?? {},
    subscriberId: context.subscriber!.subscriberId,
    transactionId: context.job.transactionId,
    channelCredentials: target.channelCredentials,
    phone: context.subscriber?.phone ?? undefined,
  }),
  targetFields: (target) => ({ directWebhookUrl: target.webhookUrl }),
};

@Injectable()
export class ChatStep implements StepHandler {
  readonly type = 'chat';
  readonly claims = true;

  constructor(
    private readonly preparation: ChannelPreparation,
    private readonly delivery: SubscriberChannelDelivery,
  ) {}

  async start(context: StepContext): Promise<StepOutcome> {
    const prepared = await this.preparation.prepare(context);
    if ('done' in prepared) return prepared.done;
    return this.delivery.deliver(context, prepared.rendered, prepared.earlier, CHAT);
  }

  resume(context: StepContext): Promise<StepOutcome> {
    return this.start(context);
  }
}
