import { Injectable } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { AppConfig } from '#common';
import { CredentialsCipher } from '#application';
import type { WebhookSend } from '#dal';
import { postEvent, ProviderError } from '#providers';

export interface AttemptAnswer {
  ok: boolean;
  statusCode: number | null;
  retryAfter: string | null;
  durationMs: number;
  error: string | null;
}

/** Signers of endpoints' secrets kept decrypted; a rotation changes the key, so stale entries are only unused. */
const MAX_CACHED_SIGNERS = 1_000;

/**
 * One signed POST of an event to an endpoint: the Standard Webhooks headers (`webhook-id`, the
 * event's id on every attempt; `webhook-timestamp`; `webhook-signature` with one `v1,` entry per
 * secret still signing, two during a rotation), through the SSRF guard, with no redirect followed
 * and the answer's body discarded. Anything but a 2xx within WEBHOOK_TIMEOUT_MS is a failed attempt.
 */
@Injectable()
export class WebhookSender {
  private readonly signers = new Map<string, Webhook>();

  constructor(
    private readonly cipher: CredentialsCipher,
    private readonly config: AppConfig,
  ) {}

  async send({ event, endpoint }: WebhookSend, now: Date): Promise<AttemptAnswer> {
    const { body } = event;
    const signature = this.secrets(endpoint, now)
      .map((encrypted) => this.signer(encrypted).sign(event.id, now, body))
      .join(' ');
    const started = performance.now();
    try {
      const answer = await postEvent(
        endpoint.url,
        {
          ...endpoint.headers,
          'content-type': 'application/json',
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        { timeoutMs: this.config.webhookTimeoutMs, allowPrivateTargets: this.config.allowPrivateWebhookTargets },
      );
      const durationMs = Math.round(performance.now() - started);
      const ok = answer.status >= 200 && answer.status < 300;
      return {
        ok,
        statusCode: answer.status,
        retryAfter: answer.retryAfter,
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

  /** The encrypted secrets signing now: the current one, and the previous one during a rotation's overlap. */
  private secrets(endpoint: WebhookSend['endpoint'], now: Date): string[] {
    const previous =
      endpoint.previousSecretEncrypted && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now
        ? endpoint.previousSecretEncrypted
        : undefined;
    return previous ? [endpoint.secretEncrypted, previous] : [endpoint.secretEncrypted];
  }

  private signer(encrypted: string): Webhook {
    let signer = this.signers.get(encrypted);
    if (!signer) {
      if (this.signers.size >= MAX_CACHED_SIGNERS) this.signers.clear();
      signer = new Webhook(this.cipher.decrypt(encrypted).secret as string);
      this.signers.set(encrypted, signer);
    }
    return signer;
  }
}
