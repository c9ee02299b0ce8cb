import { Injectable } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { AppConfig } from '#common';
import { CredentialsCipher } from '#application';
import type { WebhookSend } from '#dal';
import { ProviderError, providerRequest } from '#providers';

/** A receiver has this long to answer with a 2xx; anything else is a failed attempt. */
export const WEBHOOK_TIMEOUT_MS = 15_000;

export interface AttemptAnswer {
  ok: boolean;
  statusCode: number | null;
  retryAfter: string | null;
  durationMs: number;
  error: string | null;
}

/**
 * One signed POST of an event to an endpoint: the Standard Webhooks headers (`webhook-id`, the
 * event's id on every attempt; `webhook-timestamp`; `webhook-signature` with one `v1,` entry per
 * secret still signing, two during a rotation), through the SSRF guard, with no redirect followed
 * and the answer read up to 1 MB.
 */
@Injectable()
export class WebhookSender {
  constructor(
    private readonly cipher: CredentialsCipher,
    private readonly config: AppConfig,
  ) {}

  async send({ event, endpoint }: WebhookSend, now: Date): Promise<AttemptAnswer> {
    const body = JSON.stringify(event.body);
    const signature = this.secrets(endpoint, now)
      .map((secret) => new Webhook(secret).sign(event.id, now, body))
      .join(' ');
    const started = performance.now();
    try {
      const answer = await providerRequest(
        {
          provider: 'The webhook endpoint',
          url: endpoint.url,
          headers: {
            ...endpoint.headers,
            'content-type': 'application/json',
            'webhook-id': event.id,
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': signature,
          },
          body,
          guard: true,
        },
        { timeoutMs: WEBHOOK_TIMEOUT_MS, allowPrivateTargets: this.config.allowPrivateWebhookTargets },
      );
      const durationMs = Math.round(performance.now() - started);
      const ok = answer.status >= 200 && answer.status < 300;
      return {
        ok,
        statusCode: answer.status,
        retryAfter: answer.headers.get('retry-after'),
        durationMs,
        error: ok ? null : `answered HTTP ${answer.status}`,
      };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return {
        ok: false,
        statusCode: null,
        retryAfter: null,
        durationMs: Math.round(performance.now() - started),
        error: error.message,
      };
    }
  }

  private secrets(endpoint: WebhookSend['endpoint'], now: Date): string[] {
    const current = this.cipher.decrypt(endpoint.secretEncrypted).secret as string;
    const previous =
      endpoint.previousSecretEncrypted && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now
        ? (this.cipher.decrypt(endpoint.previousSecretEncrypted).secret as string)
        : undefined;
    return previous ? [current, previous] : [current];
  }
}
