import { Injectable } from '@nestjs/common';
import { ChatWebhookProvider } from './chat/chat-webhook.provider.js';
import { NodemailerProvider } from './email/nodemailer.provider.js';
import type { ProviderAdapter } from './provider.js';
import { PushWebhookProvider } from './push/push-webhook.provider.js';

/** Every provider adapter, by providerId. */
@Injectable()
export class ProviderRegistry {
  private readonly adapters = new Map<string, ProviderAdapter>();

  constructor() {
    for (const adapter of [new NodemailerProvider(), new ChatWebhookProvider(), new PushWebhookProvider()] as ProviderAdapter[]) {
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
