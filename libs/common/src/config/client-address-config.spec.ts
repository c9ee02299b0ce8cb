import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseConfig } from './app-config.js';

describe('TRUST_PROXY', () => {
  it('is off by default: the socket address is the client', () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('takes a list of proxy addresses, subnets and range names', () => {
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8 ,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses true and hop counts (a client that connects directly could choose its address), and what is not an address, naming the variable', () => {
    for (const trustAll of ['true', '2'])
      expect(() => parseConfig({ TRUST_PROXY: trustAll })).toThrow(
        `TRUST_PROXY takes the proxies' addresses or subnets (10.0.0.0/8, loopback), not "${trustAll}": it would let a client that connects directly choose its address`,
      );
    for (const bad of ['proxy.internal', '10.0.0.0/33', '10.0.0.1/8/2', '10.0.0.1,', 'fd00::/129'])
      expect(() => parseConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
    expect(() => parseConfig({ TRUST_PROXY: '10.0.0.1, proxy.internal' })).toThrow(
      'TRUST_PROXY must be a comma-separated list of proxy addresses or subnets (10.0.0.0/8, loopback), got "proxy.internal"',
    );
  });
});

describe('RATE_LIMIT_INBOX_SESSION_FAILURES_*', () => {
  it('allows a client 20 failed session attempts, then one a second, by default', () => {
    expect(parseConfig({}).inboxSessionFailureRateLimit).toEqual({ perSecond: 1, burst: 20 });
  });

  it('reads both settings and refuses what is not a positive integer', () => {
    const env = { RATE_LIMIT_INBOX_SESSION_FAILURES_PER_SECOND: '5', RATE_LIMIT_INBOX_SESSION_FAILURES_BURST: '50' };
    expect(parseConfig(env).inboxSessionFailureRateLimit).toEqual({ perSecond: 5, burst: 50 });
    expect(() => parseConfig({ RATE_LIMIT_INBOX_SESSION_FAILURES_BURST: '0' })).toThrow(
      'RATE_LIMIT_INBOX_SESSION_FAILURES_BURST must be an integer between 1 and 10000000, got "0"',
    );
  });
});
