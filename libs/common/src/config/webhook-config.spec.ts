import { describe, expect, it } from '@jest/globals';
import { parseConfig } from './app-config.js';

describe('webhook time-out setting', () => {
  it('gives a receiver 15 s by default, and takes 1 to 60 s in milliseconds', () => {
    expect(parseConfig({}).webhookTimeoutMs).toBe(15_000);
    expect(parseConfig({ WEBHOOK_TIMEOUT_MS: '1000' }).webhookTimeoutMs).toBe(1_000);
    expect(parseConfig({ WEBHOOK_TIMEOUT_MS: '60000' }).webhookTimeoutMs).toBe(60_000);
  });

  it.each(['999', '60001', '2.5', 'soon'])('refuses WEBHOOK_TIMEOUT_MS=%s, naming the variable', (value) => {
    expect(() => parseConfig({ WEBHOOK_TIMEOUT_MS: value })).toThrow(
      new RegExp(`^WEBHOOK_TIMEOUT_MS must be an integer between 1000 and 60000, got "${value}"$`),
    );
  });
});

describe('webhook concurrency setting', () => {
  it('keeps 64 requests in flight per endpoint by default, and takes 1 to 256', () => {
    expect(parseConfig({}).webhookConcurrency).toBe(64);
    expect(parseConfig({ WEBHOOK_CONCURRENCY: '1' }).webhookConcurrency).toBe(1);
    expect(parseConfig({ WEBHOOK_CONCURRENCY: '256' }).webhookConcurrency).toBe(256);
  });

  it.each(['0', '257', '1.5', 'many'])('refuses WEBHOOK_CONCURRENCY=%s, naming the variable', (value) => {
    expect(() => parseConfig({ WEBHOOK_CONCURRENCY: value })).toThrow(
      new RegExp(`^WEBHOOK_CONCURRENCY must be an integer between 1 and 256, got "${value}"$`),
    );
  });
});
