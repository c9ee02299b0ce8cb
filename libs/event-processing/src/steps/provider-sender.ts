import { Injectable } from '@nestjs/common';
import { AppConfig, type ExecutionSource } from '#common';
import { CredentialsCipher } from '#application';
import type { IntegrationRow } from '#dal';
import {
  InvalidDeviceTokenError,
  ProviderError,
  ProviderRegistry,
  redact,
  type ProviderMessage,
  type SendResult,
} from '#providers';
import { CircuitBreakers } from './circuit-breakers.js';
import { MESSAGE_ERROR_IDS, type MessageErrorId } from './message-error-ids.js';
import type { StepDetail } from './step-outcome.js';
import { overriddenSend, type StepOverrides } from './trigger-overrides.js';

/** The provider call to make when the job runs again, after `delayMs`. */
interface NextAttempt {
  integrationId: string;
  attempt: number;
  delayMs: number;
}

export type SendAttempt =
  | { ok: true; result: SendResult; integration: IntegrationRow }
  | { ok: false; error: string; errorId: MessageErrorId; invalidDeviceToken?: boolean; retry?: NextAttempt };

const MAX_BACKOFF_MS = 30_000;
const SECRET_CREDENTIAL = /key|secret|token|password|serviceaccount|webhookurl/i;

/** Credential values that must never reach a detail or error text (defence in depth over the adapters' own redaction). */
function secretValues(credentials: Record<string, unknown>): string[] {
  const values = Object.entries(credentials)
    .filter(([name, value]) => SECRET_CREDENTIAL.test(name) && typeof value === 'string')
    .map(([, value]) => value as string);
  if (typeof credentials.serviceAccount !== 'string') return values;
  try {
    const account = JSON.parse(credentials.serviceAccount) as { private_key?: string } | null;
    if (account?.private_key) values.push(account.private_key);
  } catch {
    // not JSON: the value itself is already listed
  }
  return values;
}

/**
 * Execution-detail source of a failure: Credentials for missing or refused integration credentials,
 * Webhook for requests to a client-supplied URL (subscriber chat webhooks, *-webhook integrations,
 * SSRF refusals), Internal for everything else (network errors and answers of provider APIs).
 */
function sourceOf(failure: ProviderError, message: ProviderMessage, providerId: string): ExecutionSource {
  if (failure.kind === 'credentials') return 'Credentials';
  const toWebhook =
    (message.channel === 'chat' && providerId !== 'whatsapp-business') || providerId.endsWith('-webhook');
  return failure.kind === 'target' || toWebhook ? 'Webhook' : 'Internal';
}

/** The message's errorId for a provider failure: what it is about, and whether trying again could have helped. */
function errorIdOf(failure: ProviderError): MessageErrorId {
  if (failure instanceof InvalidDeviceTokenError) return MESSAGE_ERROR_IDS.invalidDeviceToken;
  if (failure.kind === 'credentials') return MESSAGE_ERROR_IDS.invalidCredentials;
  if (failure.kind === 'target') return MESSAGE_ERROR_IDS.targetRefused;
  return failure.retryable ? MESSAGE_ERROR_IDS.providerUnavailable : MESSAGE_ERROR_IDS.providerRejected;
}

/** The endpoint a send reaches, for its circuit: the integration, and for a chat entry its webhook host. */
function endpointOf(message: ProviderMessage, integration: IntegrationRow): string {
  if (message.channel !== 'chat') return integration.id;
  try {
    return `${integration.id}@${new URL(message.webhookUrl).host}`;
  } catch {
    return integration.id;
  }
}

/**
 * Sends one message through a list of integrations in failover order: each gets up to
 * providerMaxAttempts tries while its failure is retryable, then the next one gets its turn. A run
 * makes one try per integration: a retryable failure returns the next attempt (exponential backoff
 * with jitter) for the job to make when it runs again, so no worker waits out a backoff. Every
 * attempt is an execution detail; retries carry isRetry. An endpoint whose circuit is open is not
 * called: the send fails over to the next integration, or (the last one) spends its attempt waiting
 * in the queue for the circuit's trial send.
 */
@Injectable()
export class ProviderSender {
  private readonly breakers: CircuitBreakers;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly cipher: CredentialsCipher,
    private readonly config: AppConfig,
  ) {
    this.breakers = new CircuitBreakers(config.providerBreakerFailures, config.providerBreakerOpenMs);
  }

  /**
   * `resume`: the attempt an earlier run of the job left to make (its integration and number).
   * `overrides`: the trigger's, applied per integration (provider overrides differ by provider).
   */
  async send(
    message: ProviderMessage,
    integrations: IntegrationRow[],
    details: StepDetail[],
    resume?: { integrationId: string; attempt: number },
    overrides?: StepOverrides,
  ): Promise<SendAttempt> {
    let last: SendAttempt = {
      ok: false,
      error: 'No integration to send through',
      errorId: MESSAGE_ERROR_IDS.noActiveIntegration,
    };
    const resumeAt = resume ? integrations.findIndex((integration) => integration.id === resume.integrationId) : -1;
    for (let index = Math.max(0, resumeAt); index < integrations.length; index++) {
      const integration = integrations[index];
      const attempt = index === resumeAt ? resume!.attempt : 1;
      if (index > 0 && attempt === 1) {
        details.push({
          status: 'Pending',
          source: 'Internal',
          providerId: integration.providerId,
          detail: `Failing over to integration ${integration.identifier} (${integration.providerId})`,
        });
      }
      const endpoint = endpointOf(message, integration);
      const blockedMs = this.breakers.blockedFor(endpoint);
      const result =
        blockedMs > 0
          ? this.deferred(integration, attempt, blockedMs, details, index === integrations.length - 1)
          : await this.sendThrough(message, integration, attempt, details, overrides, endpoint);
      if (result.ok || result.invalidDeviceToken || result.retry) return result;
      last = result;
    }
    return last;
  }

  /** A send to an endpoint whose circuit is open: fail over, or wait in the queue as this attempt. */
  private deferred(
    integration: IntegrationRow,
    attempt: number,
    blockedMs: number,
    details: StepDetail[],
    last: boolean,
  ): SendAttempt {
    const { providerId, identifier } = integration;
    const maxAttempts = this.config.providerMaxAttempts;
    const why = `its endpoint failed ${this.config.providerBreakerFailures} times in a row (timeouts, network or server errors), so sends to it pause for ${Math.ceil(blockedMs / 1000)} s`;
    const error = `Sending through integration ${identifier} deferred: ${why}`;
    const retrying = last && attempt < maxAttempts;
    const delayMs = retrying ? Math.max(blockedMs, this.backoff(attempt)) : 0;
    details.push({
      status: 'Failed',
      source: 'Internal',
      providerId,
      detail: last
        ? `Attempt ${attempt} of ${maxAttempts} through ${identifier} not made: ${why}${retrying ? `; retrying in ${delayMs} ms` : ''}`
        : `Integration ${identifier} (${providerId}) skipped: ${why}`,
      isRetry: attempt > 1,
    });
    const errorId = MESSAGE_ERROR_IDS.circuitOpen;
    if (retrying)
      return { ok: false, error, errorId, retry: { integrationId: integration.id, attempt: attempt + 1, delayMs } };
    return { ok: false, error, errorId };
  }

  private async sendThrough(
    message: ProviderMessage,
    integration: IntegrationRow,
    attempt: number,
    details: StepDetail[],
    overrides: StepOverrides | undefined,
    endpoint: string,
  ): Promise<SendAttempt> {
    const { providerId, identifier } = integration;
    const overridden = overriddenSend(message, overrides?.forProvider(providerId));
    if ('refusal' in overridden) {
      details.push({ status: 'Failed', source: 'Payload', providerId, detail: overridden.refusal });
      return { ok: false, error: overridden.refusal, errorId: MESSAGE_ERROR_IDS.invalidAddress };
    }
    const adapter = this.registry.get(providerId);
    if (!adapter) {
      const error = `Provider ${providerId} of integration ${identifier} is not supported for delivery`;
      details.push({ status: 'Failed', source: 'Internal', providerId, detail: error });
      return { ok: false, error, errorId: MESSAGE_ERROR_IDS.providerUnsupported };
    }
    let credentials: Record<string, unknown>;
    try {
      credentials = this.cipher.decrypt(integration.credentials);
    } catch {
      const error = `Credentials of integration ${identifier} cannot be decrypted`;
      details.push({ status: 'Failed', source: 'Credentials', providerId, detail: error });
      return { ok: false, error, errorId: MESSAGE_ERROR_IDS.invalidCredentials };
    }
    const secrets = secretValues(credentials);
    const maxAttempts = this.config.providerMaxAttempts;
    const isRetry = attempt > 1;
    try {
      // The trigger's sender fields replace the integration's for this message only.
      const result = await adapter.send(
        overridden.message,
        { ...credentials, ...overridden.sender },
        {
          timeoutMs: this.config.providerTimeoutMs,
          allowPrivateTargets: this.config.allowPrivateWebhookTargets,
        },
      );
      this.breakers.succeeded(endpoint);
      const tries = isRetry ? ` on attempt ${attempt}` : '';
      details.push({
        status: 'Success',
        source: 'Internal',
        providerId,
        detail: `Message sent through integration ${identifier} (${providerId})${tries}`,
        raw: JSON.stringify(result),
        isRetry,
      });
      return { ok: true, result, integration };
    } catch (thrown) {
      const failure =
        thrown instanceof ProviderError
          ? thrown
          : new ProviderError(String((thrown as Error)?.message ?? thrown), false);
      // Only the endpoint's own answers (or silence) move its circuit; refused targets and credentials do not.
      if (failure.kind === 'provider') {
        if (failure.retryable) this.breakers.failed(endpoint);
        else this.breakers.succeeded(endpoint);
      }
      const error = redact(`Sending through integration ${identifier} failed: ${failure.message}`, secrets);
      const retrying = failure.retryable && attempt < maxAttempts;
      const delayMs = retrying ? this.backoff(attempt) : 0;
      details.push({
        status: 'Failed',
        source: sourceOf(failure, message, providerId),
        providerId,
        detail: `Attempt ${attempt} of ${maxAttempts} through ${identifier} failed: ${redact(failure.message, secrets)}${retrying ? `; retrying in ${delayMs} ms` : ''}`,
        raw: failure.raw ? redact(failure.raw, secrets) : null,
        isRetry,
      });
      const errorId = errorIdOf(failure);
      if (failure instanceof InvalidDeviceTokenError) return { ok: false, error, errorId, invalidDeviceToken: true };
      if (retrying)
        return { ok: false, error, errorId, retry: { integrationId: integration.id, attempt: attempt + 1, delayMs } };
      return { ok: false, error, errorId };
    }
  }

  private backoff(attempt: number): number {
    return retryBackoffMs(attempt, this.config.providerBackoffMs);
  }
}

/** Exponential backoff with equal jitter: half the doubled delay fixed, half random. */
export function retryBackoffMs(attempt: number, firstMs: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, firstMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
