import { Injectable } from '@nestjs/common';
import type { IntegrationRow, NewMessageRow, SubscriberRow } from '#dal';
import type { ProviderMessage } from '#providers';
import { record, type StepContext } from '../step-context.js';
import { outcome, type StepOutcome } from '../step-outcome.js';
import { ProviderSender } from '../provider-sender.js';
import { MESSAGE_ERROR_IDS } from '../message-error-ids.js';
import { routeDirect } from '../integration-routing.js';
import { StepOverrides } from '../trigger-overrides.js';
import { messageRow, text, type Rendered } from './channel-step.js';

/** What a channel that sends to the subscriber's own address (email, sms) contributes to a delivery. */
export interface DirectChannel {
  address(subscriber: SubscriberRow | undefined): string | null | undefined;
  /** How a missing address is named: "Subscriber does not have <missing>". */
  missing: string;
  /** The message row's address column. */
  addressField(address: string | null): Partial<NewMessageRow>;
  /** Why an address must not be used, if it must not. */
  refusal?(address: string): string | undefined;
  providerMessage(address: string, rendered: Rendered): ProviderMessage;
  /** The message row's content. */
  content(rendered: Rendered): NewMessageRow['content'];
}

/**
 * email and sms: the subscriber's address (or the trigger's override `to` when it has none); the integration named by the trigger's overrides, or the
 * environment's integrations of the channel routed by their conditions, in failover order.
 */
@Injectable()
export class DirectDelivery {
  constructor(private readonly sender: ProviderSender) {}

  async deliver(context: StepContext, rendered: Rendered, channel: DirectChannel): Promise<StepOutcome> {
    const { job } = context;
    const overrides = new StepOverrides(context.overrides ?? {}, job);
    const address = channel.address(context.subscriber) ?? overrides.recipient;
    const addressField = channel.addressField(address ?? null);
    if (!address) {
      const missing = `Subscriber does not have ${channel.missing}`;
      record(context, { status: 'Warning', source: 'Payload', detail: `${missing}: step skipped` });
      const row = messageRow(context, {
        ...addressField,
        status: 'warning',
        errorId: MESSAGE_ERROR_IDS.missingAddress,
        errorText: missing,
        content: text(rendered.content),
      });
      return outcome.skipped({ messages: [row] });
    }
    const refusal = channel.refusal?.(address);
    if (refusal) {
      record(context, { status: 'Failed', source: 'Payload', detail: refusal });
      const row = messageRow(context, {
        ...addressField,
        status: 'error',
        errorId: MESSAGE_ERROR_IDS.invalidAddress,
        errorText: refusal,
        content: text(rendered.content),
      });
      return outcome.failed(refusal, { messages: [row] });
    }
    const active = context.integrations ?? [];
    if (active.length === 0) {
      record(context, {
        status: 'Failed',
        source: 'Credentials',
        detail: `The environment has no active ${job.type} integration`,
      });
      return outcome.failed(`No active ${job.type} integration`);
    }
    const integrations = this.integrationsFor(context, active, overrides);
    if (integrations.length === 0) return outcome.failed(context.details.at(-1)!.detail);
    const subject = text(rendered.subject);
    // The one delivery of an email or sms step has the empty delivery key.
    const retry = job.providerRetry?.deliveryKey === '' ? job.providerRetry : undefined;
    const sent = await this.sender.send(
      channel.providerMessage(address, rendered),
      integrations,
      context.details,
      retry,
      overrides,
    );
    if (!sent.ok && sent.retry) return outcome.retry(context.now, '', sent.retry);
    const fields = { ...addressField, subject, content: channel.content(rendered) };
    if (!sent.ok) {
      const row = messageRow(context, { ...fields, status: 'error', errorId: sent.errorId, errorText: sent.error });
      return outcome.failed(sent.error, { messages: [row] });
    }
    const providerId = sent.integration.providerId;
    const row = messageRow(context, {
      ...fields,
      status: 'sent',
      providerId,
      deliveredAt: [context.now.toISOString()],
    });
    return outcome.completed({ providerId, messages: [row] });
  }

  /**
   * The integrations to send through, each decision recorded: the one `integrationIdentifier` names
   * (only among the environment's active integrations of the channel, so another environment's is
   * not found), else the conditions' routing.
   */
  private integrationsFor(context: StepContext, active: IntegrationRow[], overrides: StepOverrides): IntegrationRow[] {
    const wanted = overrides.integrationIdentifier;
    // A run resuming a provider retry made this choice already (and recorded it).
    const decided = Boolean(context.job.providerRetry);
    if (wanted === undefined) {
      const routed = routeDirect(context, active);
      if (routed.detail && !(decided && routed.integrations.length > 0)) record(context, routed.detail);
      return routed.integrations;
    }
    const named = active.find((integration) => integration.identifier === wanted);
    if (!decided || !named)
      record(
        context,
        named
          ? {
              status: 'Pending',
              source: 'Internal',
              providerId: named.providerId,
              detail: `Integration ${named.identifier} (${named.providerId}) chosen: named by ${overrides.integrationIdentifierPath}`,
            }
          : {
              status: 'Failed',
              source: 'Payload',
              detail: `Integration ${wanted} named by ${overrides.integrationIdentifierPath} is not an active ${context.job.type} integration of this environment: not sent`,
            },
      );
    return named ? [named] : [];
  }
}
