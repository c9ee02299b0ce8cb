import { Injectable } from '@nestjs/common';
import { AppConfig } from '#common';
import { CredentialsCipher } from '#application';
import type { IntegrationRow } from '#dal';
import { ProviderError, ProviderRegistry, type ProviderMessage, type SendResult } from '#providers';
import type { StepDetail } from './step-outcome.js';

export type SendAttempt = { ok: true; result: SendResult; integration: IntegrationRow } | { ok: false; error: string; raw?: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends one message through a list of integrations in failover order: each gets up to
 * providerMaxAttempts tries (exponential backoff) while its failure is retryable, then the next one.
 */
@Injectable()
export class ProviderSender {
  constructor(
    private readonly registry: ProviderRegistry,
    private readonly cipher: CredentialsCipher,
    private readonly config: AppConfig,
  ) {}

  async send(message: ProviderMessage, integrations: IntegrationRow[], details: StepDetail[], credentialsOverride?: Record<string, unknown>): Promise<SendAttempt> {
    let last: SendAttempt = { ok: false, error: 'No integration to send through' };
    for (const integration of integrations) {
      const adapter = this.registry.get(integration.providerId);
      if (!adapter) {
        last = { ok: false, error: `Provider ${integration.providerId} is not supported for delivery` };
        details.push({ status: 'Failed', source: 'Internal', providerId: integration.providerId, detail: last.error });
        continue;
      }
      let credentials: Record<string, unknown>;
      try {
        credentials = { ...this.cipher.decrypt(integration.credentials), ...credentialsOverride };
      } catch {
        last = { ok: false, error: `Credentials of integration ${integration.identifier} cannot be decrypted` };
        details.push({ status: 'Failed', source: 'Credentials', providerId: integration.providerId, detail: last.error });
        continue;
      }
      for (let attempt = 1; attempt <= this.config.providerMaxAttempts; attempt++) {
        try {
          const result = await adapter.send(message, credentials, {
            timeoutMs: this.config.providerTimeoutMs,
            allowPrivateTargets: this.config.allowPrivateWebhookTargets,
          });
          return { ok: true, result, integration };
        } catch (error) {
          const failure = error instanceof ProviderError ? error : new ProviderError(String((error as Error)?.message ?? error), false);
          last = { ok: false, error: failure.message, raw: failure.raw };
          details.push({
            status: 'Failed',
            source: 'Credentials',
            providerId: integration.providerId,
            detail: `Attempt ${attempt} through ${integration.identifier} failed: ${failure.message}`,
            raw: failure.raw ?? null,
          });
          if (!failure.retryable) break;
          if (attempt < this.config.providerMaxAttempts) await sleep(200 * 2 ** (attempt - 1));
        }
      }
    }
    return last;
  }
}
