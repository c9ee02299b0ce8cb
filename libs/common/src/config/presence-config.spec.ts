import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseConfig } from './app-config.js';

describe('presence sweep settings', () => {
  it('heartbeats every 10 s and takes a process silent for 30 s for dead, by default', () => {
    expect(parseConfig({})).toMatchObject({ presenceSweepIntervalMs: 10_000, presenceStaleAfterMs: 30_000 });
  });

  it('defaults the threshold to two intervals when the interval is long', () => {
    expect(parseConfig({ PRESENCE_SWEEP_INTERVAL_MS: '60000' }).presenceStaleAfterMs).toBe(120_000);
  });

  it('refuses a threshold shorter than two intervals: one late heartbeat would declare a live process dead', () => {
    const env = { PRESENCE_SWEEP_INTERVAL_MS: '500' };
    expect(parseConfig({ ...env, PRESENCE_STALE_AFTER_MS: '1000' }).presenceStaleAfterMs).toBe(1_000);
    expect(() => parseConfig({ ...env, PRESENCE_STALE_AFTER_MS: '999' })).toThrow(
      'PRESENCE_STALE_AFTER_MS must be an integer between 1000 and 86400000, got "999"',
    );
    expect(() => parseConfig({ PRESENCE_SWEEP_INTERVAL_MS: '0' })).toThrow(ConfigError);
  });
});
