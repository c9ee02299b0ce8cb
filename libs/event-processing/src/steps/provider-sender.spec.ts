import { describe, expect, it } from '@jest/globals';
import type { AppConfig } from '#common';
import type { CredentialsCipher } from '#application';
import type { IntegrationRow } from '#dal';
import { ProviderError, type ProviderMessage, type ProviderRegistry } from '#providers';
import { ProviderSender } from './provider-sender.js';
import type { StepDetail } from './step-outcome.js';

const MESSAGE: ProviderMessage = { channel: 'sms', to: '+15550001111', content: 'Hi' };

const integration = (id: string) =>
  ({ id, providerId: 'twilio', identifier: id, credentials: '{}' }) as unknown as IntegrationRow;

/** A sender whose provider answers each call with the next of `answers` (an error is thrown). */
function sender(answers: (Error | 'ok')[], breaker = { failures: 0, openMs: 60_000 }) {
  const calls: string[] = [];
  const adapter = {
    send: () => {
      calls.push('call');
      const answer = answers.shift();
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve({ id: 'provider-message', date: '2026-01-05T10:00:00.000Z' });
    },
  };
  const registry = { get: () => adapter } as unknown as ProviderRegistry;
  const cipher = { decrypt: () => ({}) } as unknown as CredentialsCipher;
  const config = {
    providerMaxAttempts: 3,
    providerBackoffMs: 100,
    providerTimeoutMs: 1000,
    allowPrivateWebhookTargets: false,
    providerBreakerFailures: breaker.failures,
    providerBreakerOpenMs: breaker.openMs,
  } as AppConfig;
  return { sender: new ProviderSender(registry, cipher, config), calls };
}

const unavailable = () => new ProviderError('HTTP 503', true);

describe('ProviderSender: one try per run, the next attempt handed back', () => {
  it('a retryable failure makes one call and returns the next attempt with a backoff of about providerBackoffMs', async () => {
    const { sender: send, calls } = sender([unavailable()]);
    const details: StepDetail[] = [];
    const result = await send.send(MESSAGE, [integration('a'), integration('b')], details);
    expect(calls).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, retry: { integrationId: 'a', attempt: 2 } });
    const delayMs = (result as { retry: { delayMs: number } }).retry.delayMs;
    expect(delayMs).toBeGreaterThanOrEqual(50);
    expect(delayMs).toBeLessThanOrEqual(100);
    expect(details[0].detail).toMatch(/^Attempt 1 of 3 through a failed: HTTP 503; retrying in \d+ ms$/);
  });

  it('the backoff doubles with the attempt', async () => {
    const { sender: send } = sender([unavailable()]);
    const result = await send.send(MESSAGE, [integration('a')], [], { integrationId: 'a', attempt: 2 });
    const delayMs = (result as { retry: { delayMs: number } }).retry.delayMs;
    expect(delayMs).toBeGreaterThanOrEqual(100);
    expect(delayMs).toBeLessThanOrEqual(200);
  });

  it('the last attempt fails over to the next integration in the same run', async () => {
    const { sender: send, calls } = sender([unavailable(), 'ok']);
    const details: StepDetail[] = [];
    const result = await send.send(MESSAGE, [integration('a'), integration('b')], details, {
      integrationId: 'a',
      attempt: 3,
    });
    expect(calls).toHaveLength(2);
    expect(result).toMatchObject({ ok: true, integration: { id: 'b' } });
    expect(details.map((detail) => [detail.status, detail.isRetry])).toEqual([
      ['Failed', true],
      ['Pending', undefined],
      ['Success', false],
    ]);
  });

  it('a resumed attempt that succeeds says on which attempt', async () => {
    const { sender: send } = sender(['ok']);
    const details: StepDetail[] = [];
    await send.send(MESSAGE, [integration('a')], details, { integrationId: 'a', attempt: 2 });
    expect(details[0]).toMatchObject({
      status: 'Success',
      isRetry: true,
      detail: 'Message sent through integration a (twilio) on attempt 2',
    });
  });

  it('a non-retryable failure is not retried', async () => {
    const { sender: send } = sender([new ProviderError('HTTP 400', false)]);
    const result = await send.send(MESSAGE, [integration('a')], []);
    expect(result).toEqual({
      ok: false,
      error: 'Sending through integration a failed: HTTP 400',
      errorId: 'provider_rejected',
    });
  });
});

describe('ProviderSender: an endpoint that keeps failing is not called while its circuit is open', () => {
  const breaker = { failures: 2, openMs: 60_000 };

  it('after two failures in a row the third run makes no call and waits in the queue for the circuit', async () => {
    const { sender: send, calls } = sender([unavailable(), unavailable(), 'ok'], breaker);
    await send.send(MESSAGE, [integration('a')], []);
    await send.send(MESSAGE, [integration('a')], [], { integrationId: 'a', attempt: 2 });
    const details: StepDetail[] = [];
    const result = await send.send(MESSAGE, [integration('a')], details);
    expect(calls).toHaveLength(2);
    expect(result).toMatchObject({ ok: false, errorId: 'circuit_open', retry: { integrationId: 'a', attempt: 2 } });
    expect((result as { retry: { delayMs: number } }).retry.delayMs).toBeGreaterThan(59_000);
    expect(details[0].detail).toMatch(/^Attempt 1 of 3 through a not made: its endpoint failed 2 times in a row/);
  });

  it('fails over at once to the next integration while the first one’s circuit is open', async () => {
    const { sender: send, calls } = sender([unavailable(), unavailable(), 'ok'], breaker);
    await send.send(MESSAGE, [integration('a')], []);
    await send.send(MESSAGE, [integration('a')], []);
    const details: StepDetail[] = [];
    const result = await send.send(MESSAGE, [integration('a'), integration('b')], details);
    expect(result).toMatchObject({ ok: true, integration: { id: 'b' } });
    expect(calls).toHaveLength(3);
    expect(details.map((detail) => detail.detail)).toEqual([
      expect.stringMatching(/^Integration a \(twilio\) skipped: its endpoint failed 2 times/),
      'Failing over to integration b (twilio)',
      'Message sent through integration b (twilio)',
    ]);
  });

  it('a refusal that is not the endpoint’s answer (4xx) does not open the circuit', async () => {
    const refused = () => new ProviderError('HTTP 400', false);
    const { sender: send, calls } = sender([refused(), refused(), 'ok'], breaker);
    for (let run = 0; run < 3; run++) await send.send(MESSAGE, [integration('a')], []);
    expect(calls).toHaveLength(3);
  });
});
