import { describe, expect, it } from '@jest/globals';
import { withOverrides } from './request-overrides.js';

const call = {
  provider: 'Test',
  url: 'https://api.example.com/v1/send?a=1',
  headers: { authorization: 'Bearer k' },
  json: { message: { token: 't', data: { x: '1' } }, top: 1 },
};

describe('withOverrides', () => {
  it('is the call itself without overrides', () => {
    expect(withOverrides(call, undefined)).toBe(call);
  });

  it('deep-merges fields (at the root when given), then the passthrough body last', () => {
    const next = withOverrides(
      call,
      { fields: { data: { y: '2' }, android: { priority: 'high' } }, passthrough: { body: { top: 2 } } },
      'message',
    );
    expect(next.json).toEqual({
      message: { token: 't', data: { x: '1', y: '2' }, android: { priority: 'high' } },
      top: 2,
    });
    expect(call.json.message.data).toEqual({ x: '1' });
  });

  it('adds headers but never the transport ones, and query parameters; the origin stays', () => {
    const next = withOverrides(call, {
      fields: {},
      passthrough: { headers: { 'X-Trace': 't', Host: 'evil.test', 'Content-Length': '1' }, query: { b: '2' } },
    });
    expect(next.headers).toEqual({ authorization: 'Bearer k', 'x-trace': 't' });
    expect(new URL(next.url).origin).toBe('https://api.example.com');
    expect(new URL(next.url).search).toBe('?a=1&b=2');
  });

  it('never writes __proto__', () => {
    const next = withOverrides(call, {
      fields: JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(next.json)).toBe(Object.prototype);
  });

  it('adds fields and passthrough body to a form', () => {
    const next = withOverrides(
      { provider: 'Form', url: 'https://api.example.com/', form: new URLSearchParams({ To: '+1' }) },
      { fields: { StatusCallback: 'https://hooks.example.com/s' }, passthrough: { body: { Attempt: 2 } } },
    );
    expect(next.form?.toString()).toBe('To=%2B1&StatusCallback=https%3A%2F%2Fhooks.example.com%2Fs&Attempt=2');
  });
});
