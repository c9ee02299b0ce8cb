import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { ChatWebhookProvider } from './chat/chat-webhook.provider.js';
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
import { MailgunProvider } from './email/mailgun.provider.js';
import { NodemailerProvider } from './email/nodemailer.provider.js';
import { PostmarkProvider } from './email/postmark.provider.js';
import { ResendProvider } from './email/resend.provider.js';
import { SendgridProvider } from './email/sendgrid.provider.js';
import { SesProvider } from './email/ses.provider.js';
import type { ProviderAdapter } from './provider.js';
import { ApnsProvider } from './push/apns.provider.js';
import { AppioProvider } from './push/appio.provider.js';
import { ExpoProvider } from './push/expo.provider.js';
import { FcmProvider } from './push/fcm.provider.js';
import { OneSignalProvider } from './push/one-signal.provider.js';
import { PushWebhookProvider } from './push/push-webhook.provider.js';
import { PusherBeamsProvider } from './push/pusher-beams.provider.js';
import { PushpadProvider } from './push/pushpad.provider.js';
import { PlivoProvider } from './sms/plivo.provider.js';
import { SmsWebhookProvider } from './sms/sms-webhook.provider.js';
import { SnsProvider } from './sms/sns.provider.js';
import { TwilioProvider } from './sms/twilio.provider.js';
import { VonageProvider } from './sms/vonage.provider.js';

/** Per channel, per providerId, a factory of an adapter that says it is that provider of that channel. */
type AdapterFactories<Table> = {
  [Channel in keyof Table]: {
    [Id in keyof Table[Channel]]: () => ProviderAdapter & { readonly providerId: Id; readonly channel: Channel };
  };
};

/** Returns the table unchanged; its type parameter is what checks every entry against its keys. */
export const adapterTable = <const Table extends AdapterFactories<Table>>(table: Table): Table => table;

/**
 * Every provider, by channel and providerId: adding a provider is one entry here. The providerIds a
 * subscriber's channel settings accept are read from it, and an adapter filed under another id or
 * channel than its own fails tsc.
 */
const ADAPTERS = adapterTable({
  email: {
    nodemailer: () => new NodemailerProvider(),
    sendgrid: () => new SendgridProvider(),
    mailgun: () => new MailgunProvider(),
    postmark: () => new PostmarkProvider(),
    resend: () => new ResendProvider(),
    ses: () => new SesProvider(),
  },
  sms: {
    twilio: () => new TwilioProvider(),
    vonage: () => new VonageProvider('vonage'),
    nexmo: () => new VonageProvider('nexmo'),
    plivo: () => new PlivoProvider(),
    sns: () => new SnsProvider(),
    'sms-webhook': () => new SmsWebhookProvider(),
  },
  chat: {
    slack: () => new SlackProvider('slack'),
    discord: () => new DiscordProvider(),
    msteams: () => new MsTeamsProvider(),
    mattermost: () => new MattermostProvider(),
    ryver: () => new RyverProvider(),
    zulip: () => new ZulipProvider(),
    'grafana-on-call': () => new GrafanaOnCallProvider(),
    getstream: () => new GetstreamProvider(),
    'rocket-chat': () => new RocketChatProvider(),
    'whatsapp-business': () => new WhatsappBusinessProvider(),
    'chat-webhook': () => new ChatWebhookProvider(),
    'service-slack': () => new SlackProvider('service-slack'),
  },
  push: {
    fcm: () => new FcmProvider(),
    apns: () => new ApnsProvider(),
    expo: () => new ExpoProvider(),
    'one-signal': () => new OneSignalProvider(),
    pushpad: () => new PushpadProvider(),
    'push-webhook': () => new PushWebhookProvider(),
    'pusher-beams': () => new PusherBeamsProvider(),
    appio: () => new AppioProvider(),
  },
});

/** The shape of the registry: channel → providerId → adapter factory. */
export type ProviderTable = typeof ADAPTERS;

const idsOf = <Channel extends keyof typeof ADAPTERS>(channel: Channel) =>
  Object.keys(ADAPTERS[channel]) as (keyof (typeof ADAPTERS)[Channel] & string)[];

/** Chat and push send with the subscriber's channel settings, which name one of these providers. */
export const CHAT_PROVIDER_IDS = idsOf('chat');
export const PUSH_PROVIDER_IDS = idsOf('push');
export const SUBSCRIBER_PROVIDER_IDS = [...CHAT_PROVIDER_IDS, ...PUSH_PROVIDER_IDS];

/** An adapter of every provider, by providerId. */
@Injectable()
export class ProviderRegistry implements OnModuleDestroy {
  private readonly adapters = new Map<string, ProviderAdapter>(
    Object.values(ADAPTERS).flatMap((byId) =>
      Object.entries(byId).map(([providerId, create]: [string, () => ProviderAdapter]) => [providerId, create()]),
    ),
  );

  get(providerId: string): ProviderAdapter | undefined {
    return this.adapters.get(providerId);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.adapters.values()].map(async (adapter) => adapter.close?.()));
  }
}
