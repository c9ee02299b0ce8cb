import type { ProviderTable } from './provider-registry.js';

/** One credential of an integration, as a form asks for it. */
export interface CredentialField {
  name: string;
  label: string;
  /** Write-only: the dashboard never reads it back. */
  secret: boolean;
  required: boolean;
  /** `text` is a multi-line value (a key file, a service account JSON). */
  type: 'string' | 'text' | 'boolean';
}

interface ProviderDescription {
  displayName: string;
  credentials: CredentialField[];
}

const field = (name: string, label: string, required = false): CredentialField => ({
  name,
  label,
  secret: false,
  required,
  type: 'string',
});
const secret = (name: string, label: string, required = true): CredentialField => ({
  name,
  label,
  secret: true,
  required,
  type: 'string',
});
const flag = (name: string, label: string): CredentialField => ({
  name,
  label,
  secret: false,
  required: false,
  type: 'boolean',
});
const multiline = (credential: CredentialField): CredentialField => ({ ...credential, type: 'text' });

const from = field('from', 'From address', true);
const senderName = field('senderName', 'Sender name');
const baseUrl = field('baseUrl', 'API base URL (replaces the public one)');
const awsKeys = [
  secret('accessKey', 'Access key id'),
  secret('secretKey', 'Secret access key'),
  secret('sessionToken', 'Session token (temporary credentials only)', false),
  field('region', 'Region', true),
];
/** Chat providers that post to the subscriber's own webhook URL need no integration credentials. */
const subscriberWebhook: ProviderDescription['credentials'] = [];

/**
 * What each provider reads from its integration's credentials, by channel and providerId: the compiler
 * holds it to the registry's entries, so a provider added there needs its description here. The
 * `tlsOptions` object of nodemailer has no form field (the API still takes it).
 */
const CATALOGUE = {
  email: {
    nodemailer: {
      displayName: 'SMTP (Nodemailer)',
      credentials: [
        field('host', 'Host', true),
        field('port', 'Port'),
        flag('secure', 'Secure (TLS from the start)'),
        field('user', 'User'),
        secret('password', 'Password', false),
        from,
        senderName,
        flag('requireTls', 'Require STARTTLS'),
        flag('ignoreTls', 'Ignore STARTTLS'),
      ],
    },
    sendgrid: {
      displayName: 'SendGrid',
      credentials: [
        secret('apiKey', 'API key'),
        from,
        senderName,
        field('region', 'Region (eu)'),
        field('ipPoolName', 'IP pool name'),
        baseUrl,
      ],
    },
    mailgun: {
      displayName: 'Mailgun',
      credentials: [
        secret('apiKey', 'API key'),
        field('domain', 'Domain', true),
        from,
        senderName,
        field('user', 'User (default api)'),
        baseUrl,
      ],
    },
    postmark: { displayName: 'Postmark', credentials: [secret('apiKey', 'Server token'), from, senderName, baseUrl] },
    resend: { displayName: 'Resend', credentials: [secret('apiKey', 'API key'), from, senderName, baseUrl] },
    ses: { displayName: 'Amazon SES', credentials: [...awsKeys, from, senderName, baseUrl] },
  },
  sms: {
    twilio: {
      displayName: 'Twilio',
      credentials: [field('accountSid', 'Account SID', true), secret('token', 'Auth token'), from, baseUrl],
    },
    vonage: {
      displayName: 'Vonage',
      credentials: [secret('apiKey', 'API key'), secret('secretKey', 'API secret'), from, baseUrl],
    },
    nexmo: {
      displayName: 'Nexmo',
      credentials: [secret('apiKey', 'API key'), secret('secretKey', 'API secret'), from, baseUrl],
    },
    plivo: {
      displayName: 'Plivo',
      credentials: [field('accountSid', 'Auth ID', true), secret('token', 'Auth token'), from, baseUrl],
    },
    sns: { displayName: 'Amazon SNS', credentials: [...awsKeys, field('senderId', 'Sender id'), baseUrl] },
    'sms-webhook': {
      displayName: 'SMS webhook',
      credentials: [
        secret('webhookUrl', 'Webhook URL'),
        secret('secretKey', 'Signing secret', false),
        field('from', 'From'),
        field('idPath', 'Path of the message id in the answer'),
        field('datePath', 'Path of the date in the answer'),
      ],
    },
  },
  chat: {
    slack: { displayName: 'Slack', credentials: subscriberWebhook },
    'service-slack': { displayName: 'Slack (service)', credentials: subscriberWebhook },
    discord: { displayName: 'Discord', credentials: subscriberWebhook },
    msteams: { displayName: 'Microsoft Teams', credentials: subscriberWebhook },
    mattermost: { displayName: 'Mattermost', credentials: subscriberWebhook },
    ryver: { displayName: 'Ryver', credentials: subscriberWebhook },
    zulip: { displayName: 'Zulip', credentials: subscriberWebhook },
    'grafana-on-call': {
      displayName: 'Grafana OnCall',
      credentials: [
        field('alertUid', 'Alert uid'),
        field('title', 'Title'),
        field('imageUrl', 'Image URL'),
        field('state', 'State'),
        field('externalLink', 'External link'),
      ],
    },
    'rocket-chat': {
      displayName: 'Rocket.Chat',
      credentials: [secret('token', 'Auth token'), field('user', 'User id', true)],
    },
    getstream: { displayName: 'Stream', credentials: [secret('apiKey', 'API key'), baseUrl] },
    'whatsapp-business': {
      displayName: 'WhatsApp Business',
      credentials: [
        secret('apiToken', 'Access token'),
        field('phoneNumberIdentification', 'Phone number id', true),
        baseUrl,
      ],
    },
    'chat-webhook': { displayName: 'Chat webhook', credentials: [secret('secretKey', 'Signing secret', false)] },
  },
  push: {
    fcm: {
      displayName: 'Firebase Cloud Messaging',
      credentials: [multiline(secret('serviceAccount', 'Service account (JSON)'))],
    },
    apns: {
      displayName: 'Apple Push Notification service',
      credentials: [
        multiline(secret('secretKey', 'Key (.p8)')),
        field('apiKey', 'Key id', true),
        field('projectName', 'Team id', true),
        field('applicationId', 'Bundle id', true),
        flag('secure', 'Production'),
      ],
    },
    expo: { displayName: 'Expo', credentials: [secret('apiKey', 'Access token', false), baseUrl] },
    'one-signal': {
      displayName: 'OneSignal',
      credentials: [secret('apiKey', 'API key'), field('applicationId', 'App id', true), baseUrl],
    },
    pushpad: {
      displayName: 'Pushpad',
      credentials: [secret('apiKey', 'Auth token'), field('applicationId', 'Project id', true), baseUrl],
    },
    'push-webhook': {
      displayName: 'Push webhook',
      credentials: [secret('webhookUrl', 'Webhook URL'), secret('secretKey', 'Signing secret', false)],
    },
    'pusher-beams': {
      displayName: 'Pusher Beams',
      credentials: [field('instanceId', 'Instance id', true), secret('secretKey', 'Secret key')],
    },
    appio: { displayName: 'App IO', credentials: [secret('apiKey', 'Subscription key'), baseUrl] },
  },
} satisfies { [Channel in keyof ProviderTable]: { [Id in keyof ProviderTable[Channel]]: ProviderDescription } };

export interface ProviderSummary extends ProviderDescription {
  providerId: string;
  channel: keyof ProviderTable;
}

/** Every provider the service sends through, channel by channel. */
export const PROVIDER_CATALOGUE: readonly ProviderSummary[] = Object.entries(CATALOGUE).flatMap(([channel, byId]) =>
  Object.entries(byId).map(([providerId, description]: [string, ProviderDescription]) => ({
    providerId,
    channel: channel as keyof ProviderTable,
    ...description,
  })),
);

/**
 * The credentials a reader who must not see secrets may see: the fields the provider describes as not
 * secret. A field it does not describe is left out too (it may be anything).
 */
export function credentialsWithoutSecrets(
  providerId: string,
  credentials: Record<string, unknown>,
): Record<string, unknown> {
  const visible = new Set(
    PROVIDER_CATALOGUE.find((provider) => provider.providerId === providerId)
      ?.credentials.filter((credential) => !credential.secret)
      .map((credential) => credential.name),
  );
  return Object.fromEntries(Object.entries(credentials).filter(([name]) => visible.has(name)));
}
