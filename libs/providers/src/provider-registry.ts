import { Injectable, type OnModuleDestroy } from '@nestjs/common';
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
import { DiscordProvider } from './chat/discord.provider.js';
import { GetstreamProvider } from './chat/getstream.provider.js';
import { GrafanaOnCallProvider } from './chat/grafana-on-call.provider.js';
import { MattermostProvider } from './chat/mattermost.provider.js';
import { MsTeamsProvider } from './chat/msteams.provider.js';
import { RocketChatProvider } from './chat/rocket-chat.provider.js';
import { RyverProvider } from './chat/ryver.provider.js';
import { SlackProvider } from './chat/slack.provider.js';
import { WhatsappBusinessProvider } from './chat/whatsapp-business.provider.js';
import { ZulipProvider } from './chat/zulip.provider.js';
import { ApnsProvider } from './push/apns.provider.js';
import { AppioProvider } from './push/appio.provider.js';
import { ExpoProvider } from './push/expo.provider.js';
import { FcmProvider } from './push/fcm.provider.js';
import { OneSignalProvider } from './push/one-signal.provider.js';
import { PusherBeamsProvider } from './push/pusher-beams.provider.js';
import { PushpadProvider } from './push/pushpad.provider.js';

/** Every provider adapter, by providerId. */
@Injectable()
export class ProviderRegistry implements OnModuleDestroy {
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
      new SlackProvider('slack'),
      new SlackProvider('service-slack'),
      new DiscordProvider(),
      new MsTeamsProvider(),
      new MattermostProvider(),
      new RyverProvider(),
      new ZulipProvider(),
      new GrafanaOnCallProvider(),
      new RocketChatProvider(),
      new GetstreamProvider(),
      new WhatsappBusinessProvider(),
      new FcmProvider(),
      new ApnsProvider(),
      new ExpoProvider(),
      new OneSignalProvider(),
      new PushpadProvider(),
      new PusherBeamsProvider(),
      new AppioProvider(),
    ] as ProviderAdapter[]) {
      this.adapters.set(adapter.providerId, adapter);
    }
  }

  get(providerId: string): ProviderAdapter | undefined {
    return this.adapters.get(providerId);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.adapters.values()].map(async (adapter) => adapter.close?.()));
  }
}
