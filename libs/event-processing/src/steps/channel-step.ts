import { Injectable } from '@nestjs/common';
import { compile } from 'html-to-text';
import { CHAT_PROVIDERS, isEmailAddress, newId, PUSH_PROVIDERS } from '#common';
import { countDeliveries } from './delivery-metrics.js';
import { TemplateEngine } from '#application';
import {
  IntegrationRepository,
  MessageRepository,
  SubscriberRepository,
  type IntegrationRow,
  type NewMessageRow,
  type StoredChannelSettings,
} from '#dal';
import type { ChatChannelCredentials, ProviderMessage } from '#providers';
import { record, templateVariables, type StepContext } from './step-context.js';
import { outcome, type StepOutcome } from './step-outcome.js';
import { ProviderSender } from './provider-sender.js';

type Rendered = Record<string, unknown>;

interface DeliveryTarget {
  integration: IntegrationRow;
  webhookUrl?: string;
  deviceToken?: string;
  channelCredentials?: ChatChannelCredentials;
  deliveryKey: string;
}

/**
 * Template fields that are HTML: their variables are escaped (`| raw` for trusted HTML). Email blocks
 * are text, escaped when the blocks become HTML.
 */
const HTML_FIELDS: Partial<Record<string, readonly string[]>> = { email: ['content'], in_app: ['content'] };

/** Chat providers that address the subscriber by phone instead of a webhook URL. */
const PHONE_CHAT_PROVIDERS = new Set(['whatsapp-business']);

/** A device token shown in details: enough to recognise it, too little to reuse it. */
const maskToken = (token: string) => (token.length > 8 ? `…${token.slice(-6)}` : '…');

const text = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
const escapeHtml = (value: string) =>
  value.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);
/**
 * The text part of an HTML email: a real HTML parser's reading (entities decoded, line breaks where
 * blocks end, links followed by their URL), unwrapped, headings as written, images left out.
 */
const htmlToText = compile({
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

/** Email content is a string (HTML) or the spec's EmailBlock[]. */
function emailBody(content: unknown): { html: string; text: string } {
  if (!Array.isArray(content)) {
    const html = text(content);
    return { html, text: htmlToText(html) };
  }
  const blocks = content as { type?: string; content?: string; url?: string }[];
  const html = blocks
    .map((block) =>
      block.type === 'button'
        ? `<p><a href="${escapeHtml(block.url ?? '#')}">${escapeHtml(text(block.content))}</a></p>`
        : `<p>${escapeHtml(text(block.content))}</p>`,
    )
    .join('\n');
  return { html, text: blocks.map((block) => text(block.content)).join('\n') };
}

/**
 * in_app, email, sms, chat and push steps: render the template, create the message rows, deliver.
 * A message row is unique per (job, delivery key), so a re-run job finds what it already sent.
 */
function isDataObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

@Injectable()
export class ChannelStep {
  constructor(
    private readonly messages: MessageRepository,
    private readonly integrations: IntegrationRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly sender: ProviderSender,
    private readonly templates: TemplateEngine,
  ) {}

  async run(context: StepContext): Promise<StepOutcome> {
    const { job } = context;
    // The first claim of a job (attempts counts claims) cannot find messages of an earlier run.
    const existing = job.attempts > 1 ? await this.messages.findByJob(job.environmentId, job.id) : [];
    const alreadySent = new Set(
      existing.filter((message) => message.status === 'sent').map((message) => message.deliveryKey),
    );
    if (alreadySent.has('')) {
      record(context, { status: 'Success', detail: 'Message was already sent by an earlier run of this step' });
      return outcome.completed();
    }
    const rendered = await this.templates.render(job.step.template, templateVariables(context), {
      htmlFields: HTML_FIELDS[job.type],
    });
    switch (job.type) {
      case 'in_app':
        return this.inApp(context, rendered);
      case 'email':
      case 'sms':
        return this.direct(context, rendered);
      default:
        return this.perChannel(context, rendered, alreadySent);
    }
  }

  private message(context: StepContext, fields: Partial<NewMessageRow>): NewMessageRow {
    const { job, workflow } = context;
    return {
      id: newId(),
      environmentId: job.environmentId,
      organizationId: job.organizationId,
      notificationId: job.notificationId,
      jobId: job.id,
      subscriberId: job.subscriberId,
      workflowId: job.workflowId,
      templateIdentifier: workflow?.identifier ?? null,
      transactionId: job.transactionId,
      channel: job.type,
      // The workflow's tags at sending time: the inbox filters messages on them.
      tags: workflow?.tags ?? [],
      ...fields,
    };
  }

  /** Writes the row, or updates it when an earlier run left one (e.g. an error before a retry). */
  private async save(context: StepContext, row: NewMessageRow): Promise<void> {
    const [inserted] = await this.messages.insertMany([row]);
    countDeliveries([row]);
    if (inserted) return;
    const [previous] = (await this.messages.findByJob(context.job.environmentId, context.job.id)).filter(
      (message) => message.deliveryKey === (row.deliveryKey ?? ''),
    );
    if (previous) {
      await this.messages.updateStatus(context.job.environmentId, previous.id, {
        status: row.status ?? 'sent',
        errorText: row.errorText ?? null,
        providerId: row.providerId ?? null,
        deliveredAt: row.deliveredAt,
      });
    }
  }

  /** Nothing leaves the database: the row is written with the job's final status, in one transaction. */
  private inApp(context: StepContext, rendered: Rendered): StepOutcome {
    const row = this.message(context, {
      subject: rendered.subject === undefined ? null : text(rendered.subject),
      content: text(rendered.content),
      cta: typeof rendered.cta === 'object' && rendered.cta !== null ? (rendered.cta as Record<string, unknown>) : {},
      // The step's own data object (Novu's in-app `data`), rendered like the rest: the inbox shows and filters it.
      data: isDataObject(rendered.data) ? rendered.data : null,
      status: 'sent',
      deliveredAt: [context.now.toISOString()],
      providerId: 'novu',
    });
    record(context, { status: 'Success', detail: 'Message created', providerId: 'novu' });
    return outcome.completed({ providerId: 'novu', messages: [row] });
  }

  /** email and sms: the subscriber's address, the environment's integrations of the channel in failover order. */
  private async direct(context: StepContext, rendered: Rendered): Promise<StepOutcome> {
    const { job, subscriber } = context;
    const isEmail = job.type === 'email';
    const address = isEmail ? subscriber?.email : subscriber?.phone;
    const addressField = isEmail ? { email: address ?? null } : { phone: address ?? null };
    if (!address) {
      const missing = `Subscriber does not have ${isEmail ? 'an email address' : 'a phone number'}`;
      await this.save(
        context,
        this.message(context, {
          ...addressField,
          status: 'warning',
          errorText: missing,
          content: text(rendered.content),
        }),
      );
      record(context, { status: 'Warning', source: 'Payload', detail: `${missing}: step skipped` });
      return outcome.skipped();
    }
    // The API refuses such addresses; one written another way (older data, SQL) must still reach no other mailbox.
    if (isEmail && !isEmailAddress(address)) {
      const invalid =
        'The subscriber email address is not one valid address (a list, a line break or a display name): not sent';
      await this.save(
        context,
        this.message(context, {
          ...addressField,
          status: 'error',
          errorText: invalid,
          content: text(rendered.content),
        }),
      );
      record(context, { status: 'Failed', source: 'Payload', detail: invalid });
      return outcome.failed(invalid);
    }
    const integrations = await this.integrations.listActiveByChannel(job.environmentId, job.type);
    if (integrations.length === 0) {
      record(context, {
        status: 'Failed',
        source: 'Credentials',
        detail: `The environment has no active ${job.type} integration`,
      });
      return outcome.failed(`No active ${job.type} integration`);
    }
    const subject = text(rendered.subject);
    const message: ProviderMessage = isEmail
      ? { channel: 'email', to: address, subject, ...emailBody(rendered.content) }
      : { channel: 'sms', to: address, content: text(rendered.content) };
    const sent = await this.sender.send(message, integrations, context.details);
    const content = isEmail
      ? Array.isArray(rendered.content)
        ? (rendered.content as unknown[])
        : text(rendered.content)
      : text(rendered.content);
    if (!sent.ok) {
      await this.save(
        context,
        this.message(context, { ...addressField, subject, content, status: 'error', errorText: sent.error }),
      );
      return outcome.failed(sent.error);
    }
    const providerId = sent.integration.providerId;
    await this.save(
      context,
      this.message(context, {
        ...addressField,
        subject,
        content,
        status: 'sent',
        providerId,
        deliveredAt: [context.now.toISOString()],
      }),
    );
    return outcome.completed({ providerId });
  }

  /**
   * chat and push: one delivery per subscriber channel entry whose integration is active (push: per
   * device token). Success if any delivery succeeds.
   */
  private async perChannel(context: StepContext, rendered: Rendered, alreadySent: Set<string>): Promise<StepOutcome> {
    const { job, subscriber } = context;
    const isChat = job.type === 'chat';
    const providers: readonly string[] = isChat ? CHAT_PROVIDERS : PUSH_PROVIDERS;
    const active = new Map(
      (await this.integrations.listActiveByChannel(job.environmentId, job.type)).map((row) => [row.id, row]),
    );
    const entries = (subscriber?.channels ?? []).filter(
      (entry) => providers.includes(entry.providerId) && active.has(entry._integrationId),
    );
    const targets = entries.flatMap((entry) => this.targetsOf(entry, isChat, active.get(entry._integrationId)!));
    if (targets.length === 0) {
      const missing = `Subscriber does not have a configured ${job.type} channel with an active integration`;
      await this.save(
        context,
        this.message(context, { status: 'warning', errorText: missing, content: text(rendered.content) }),
      );
      record(context, { status: 'Warning', source: 'Credentials', detail: `${missing}: step skipped` });
      return outcome.skipped();
    }
    let delivered = 0;
    let lastError = '';
    for (const target of targets) {
      if (alreadySent.has(target.deliveryKey)) {
        delivered++;
        continue;
      }
      const base = {
        content: text(rendered.content),
        title: rendered.title === undefined ? null : text(rendered.title),
        deliveryKey: target.deliveryKey,
      };
      const message: ProviderMessage = isChat
        ? {
            channel: 'chat',
            webhookUrl: target.webhookUrl ?? '',
            content: base.content,
            payload: context.payload ?? {},
            subscriberId: subscriber!.subscriberId,
            transactionId: job.transactionId,
            channelCredentials: target.channelCredentials,
            phone: subscriber?.phone ?? undefined,
          }
        : {
            channel: 'push',
            deviceToken: target.deviceToken!,
            title: base.title ?? '',
            content: base.content,
            payload: context.payload ?? {},
            subscriberId: subscriber!.subscriberId,
            transactionId: job.transactionId,
          };
      const sent = await this.sender.send(message, [target.integration], context.details);
      const targetFields = isChat ? { directWebhookUrl: target.webhookUrl } : { deviceTokens: [target.deviceToken!] };
      const providerId = target.integration.providerId;
      if (sent.ok) {
        delivered++;
        await this.save(
          context,
          this.message(context, {
            ...base,
            ...targetFields,
            providerId,
            status: 'sent',
            deliveredAt: [context.now.toISOString()],
          }),
        );
      } else {
        lastError = sent.error;
        await this.save(
          context,
          this.message(context, { ...base, ...targetFields, providerId, status: 'error', errorText: sent.error }),
        );
        if (sent.invalidDeviceToken) await this.dropDeviceToken(context, target);
      }
    }
    if (delivered === 0) return outcome.failed(`All ${job.type} channels failed to send the message: ${lastError}`);
    return outcome.completed();
  }

  /** The provider says the token is dead: later sends would fail the same way, so it leaves the subscriber. */
  private async dropDeviceToken(context: StepContext, target: DeliveryTarget): Promise<void> {
    const { job } = context;
    const removed = await this.subscribers.removeDeviceToken(
      job.environmentId,
      job.subscriberId,
      target.integration.id,
      target.deviceToken!,
    );
    record(context, {
      status: 'Warning',
      source: 'Credentials',
      providerId: target.integration.providerId,
      detail: removed
        ? `Device token ${maskToken(target.deviceToken!)} was rejected by ${target.integration.identifier} as invalid or expired and was removed from the subscriber`
        : `Device token ${maskToken(target.deviceToken!)} was rejected by ${target.integration.identifier} as invalid or expired (already removed from the subscriber)`,
    });
  }

  private targetsOf(entry: StoredChannelSettings, isChat: boolean, integration: IntegrationRow): DeliveryTarget[] {
    if (isChat) {
      const { webhookUrl, deviceTokens: _tokens, ...channelCredentials } = entry.credentials ?? {};
      if (!webhookUrl && !PHONE_CHAT_PROVIDERS.has(entry.providerId)) return [];
      return [{ integration, webhookUrl, channelCredentials, deliveryKey: `${integration.id}` }];
    }
    return (entry.credentials?.deviceTokens ?? []).map((deviceToken) => ({
      integration,
      deviceToken,
      deliveryKey: `${integration.id}:${deviceToken}`,
    }));
  }
}
