import { Injectable } from '@nestjs/common';
import { ChatWebhookProvider } from './chat/chat-webhook.provider.js';
import { NodemailerProvider } from './email/nodemailer.provider.js';
import type { ProviderAdapter } from './provider.js';
import { PushWebhookProvider } from './push/push-webhook.provider.js';
import { MailgunProvider } from './email/mailgun.provider.js';
import { PostmarkProvider } from './email/postmark.provider.js';
import { ResendProvider } from './email/resend.provider.js';
import { SendgridProvider } from './email/sendgrid.provider.js';
import { SesProvider } from './email/ses.provider.js';
import { PlivoProvider } from './sms/plivo.provider.js';
import { SmsWebhookProvider } from './sms/sms-webhook.provider.js';
import { SnsProvider } from './sms/sns.provider.js';
import { TwilioProvider } from './sms/twilio.provider.js';
import { VonageProvider } from './sms/vonage.provider.js';

/** Every provider adapter, by providerId. */
@Injectable()
export class ProviderRegistry {
  private readonly adapters = new Map<string, ProviderAdapter>();

  constructor() {
    for (const adapter of [
      new NodemailerProvider(),
      new ChatWebhookProvider(),
      new PushWebhookProvider(),
      new SendgridProvider(),
      new MailgunProvider(),
      new PostmarkProvider(),
      new ResendProvider(),
      new SesProvider(),
      new TwilioProvider(),
      new VonageProvider('vonage'),
      new VonageProvider('nexmo'),
      new PlivoProvider(),
      new SnsProvider(),
      new SmsWebhookProvider(),
    ] as ProviderAdapter[]) {
      this.adapters.set(adapter.providerId, adapter);
    }
  }

  get(providerId: string): ProviderAdapter | undefined {
    return this.adapters.get(providerId);
  }

  /** For tests and the delivery issue: adds or replaces an adapter. */
  register(adapter: ProviderAdapter): void {
    this.adapters.set(adapter.providerId, adapter);
  }
}
