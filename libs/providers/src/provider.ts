import type { Channel } from '#common';

/** The `_passthrough` of a trigger's provider overrides: merged last into the provider request. */
export interface Passthrough {
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** A trigger's provider overrides for the provider a message goes through (docs/providers.md, "Trigger overrides"). */
export interface ProviderOverrides {
  /** Provider request fields, deep-merged into the body the adapter sends. */
  fields: Record<string, unknown>;
  passthrough?: Passthrough;
}

interface OverridableMessage {
  overrides?: ProviderOverrides;
}

export interface EmailMessage extends OverridableMessage {
  channel: 'email';
  /** The subscriber's address. */
  to: string;
  /** More recipients (overrides.email.to). */
  alsoTo?: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
}

/** Every `To` recipient of an email: the subscriber's address first. */
export const recipientsOf = (message: EmailMessage): string[] => [message.to, ...(message.alsoTo ?? [])];

export interface SmsMessage extends OverridableMessage {
  channel: 'sms';
  to: string;
  content: string;
}

/** The spec's ChannelCredentials fields a chat provider may read besides webhookUrl. */
export interface ChatChannelCredentials {
  channel?: string;
  alertUid?: string;
  title?: string;
  imageUrl?: string;
  state?: string;
  externalUrl?: string;
}

export interface ChatMessage extends OverridableMessage {
  channel: 'chat';
  /** From the subscriber's channel credentials. */
  webhookUrl: string;
  content: string;
  payload: Record<string, unknown>;
  subscriberId: string;
  transactionId: string;
  /** The subscriber's channel credentials (the entry webhookUrl came from), for the providers using more of them. */
  channelCredentials?: ChatChannelCredentials;
  /** The subscriber's phone number (whatsapp-business addresses the recipient by phone). */
  phone?: string;
}

export interface PushMessage extends OverridableMessage {
  channel: 'push';
  deviceToken: string;
  title: string;
  content: string;
  payload: Record<string, unknown>;
  subscriberId: string;
  transactionId: string;
}

export type ProviderMessage = EmailMessage | SmsMessage | ChatMessage | PushMessage;

/** Decrypted integration credentials (the spec's IntegrationCredentials). */
export type ProviderCredentials = Record<string, unknown>;

export interface SendOptions {
  timeoutMs: number;
  /** Allows webhook targets on loopback/private networks. */
  allowPrivateTargets: boolean;
}

export interface SendResult {
  /** The provider's message id (or one we generated when it gives none). */
  id: string;
  date: string;
}

/** One delivery provider. Adding a provider = one file implementing this, listed in the registry. */
export interface ProviderAdapter<M extends ProviderMessage = ProviderMessage> {
  readonly providerId: string;
  readonly channel: Channel;
  send(message: M, credentials: ProviderCredentials, options: SendOptions): Promise<SendResult>;
  /** Releases what the adapter keeps open between sends (connections), at shutdown. */
  close?(): Promise<void>;
}

/**
 * What a failure is about: `credentials` (missing or refused integration credentials), `target` (a
 * client-supplied URL that is refused or invalid), `provider` (anything else: network, provider answer).
 */
export type ProviderFailureKind = 'credentials' | 'target' | 'provider';

/** A delivery failure; `retryable` says whether trying again (or another integration) may help. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly raw?: string,
    readonly kind: ProviderFailureKind = 'provider',
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The provider says this device token is unknown or expired: the engine should drop it from the subscriber. */
export class InvalidDeviceTokenError extends ProviderError {
  readonly invalidDeviceToken = true;

  constructor(message: string, raw?: string) {
    super(message, false, raw);
    this.name = 'InvalidDeviceTokenError';
  }
}
