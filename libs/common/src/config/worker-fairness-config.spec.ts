import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseConfig } from './app-config.js';

describe('worker fairness settings', () => {
  it('one environment gets half of WORKER_CONCURRENCY by default, at least 1; degraded after 30 s of waiting', () => {
    expect(parseConfig({}).workerEnvironmentConcurrency).toBe(25);
    expect(parseConfig({ WORKER_CONCURRENCY: '7' }).workerEnvironmentConcurrency).toBe(3);
    expect(parseConfig({ WORKER_CONCURRENCY: '1' }).workerEnvironmentConcurrency).toBe(1);
    expect(parseConfig({}).workerDegradedWaitMs).toBe(30_000);
  });

  it('takes a share up to WORKER_CONCURRENCY and refuses more, or none', () => {
    const env = { WORKER_CONCURRENCY: '10' };
    expect(parseConfig({ ...env, WORKER_ENVIRONMENT_CONCURRENCY: '10' }).workerEnvironmentConcurrency).toBe(10);
    expect(() => parseConfig({ ...env, WORKER_ENVIRONMENT_CONCURRENCY: '11' })).toThrow(ConfigError);
    expect(() => parseConfig({ ...env, WORKER_ENVIRONMENT_CONCURRENCY: '0' })).toThrow(
      'WORKER_ENVIRONMENT_CONCURRENCY must be an integer between 1 and 10, got "0"',
    );
    expect(() => parseConfig({ WORKER_DEGRADED_WAIT_MS: 'soon' })).toThrow(ConfigError);
  });
});
