import type { Channel } from '#common';

export interface EmailMessage {
  channel: 'email';
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface SmsMessage {
  channel: 'sms';
  to: string;
  content: string;
}

export interface ChatMessage {
  channel: 'chat';
  /** From the subscriber's channel credentials. */
  webhookUrl: string;
  content: string;
  payload: Record<string, unknown>;
  subscriberId: string;
  transactionId: string;
}

export interface PushMessage {
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
}

/** A delivery failure; `retryable` says whether trying again (or another integration) may help. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly raw?: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
