import { describe, expect, it } from '@jest/globals';
import { inboxTopicAllowed, parseInboxTopicPatterns, parseInboxTopicsPerSubscriber } from './inbox-topic-policy.js';

describe('inbox topic policy', () => {
  it.each([
    [[], 'news:weekly', false],
    [['news:*'], 'news:weekly', true],
    [['news:*'], 'news:', true],
    [['news:*'], 'staff-only', false],
    [['news:*'], 'xnews:weekly', false],
    [['staff-only'], 'staff-only', true],
    [['staff-only'], 'staff-only-2', false],
    [['product-*', 'releases'], 'product-a', true],
    [['*'], 'anything', true],
  ])('%j allows %s: %s', (patterns, key, allowed) => {
    expect(inboxTopicAllowed(patterns, key)).toBe(allowed);
  });

  it('parses a comma-separated list, trimmed and without repeats; none is the empty list', () => {
    expect(parseInboxTopicPatterns('news:*, product-* ,news:*')).toEqual(['news:*', 'product-*']);
    expect(parseInboxTopicPatterns('none')).toEqual([]);
    expect(parseInboxTopicPatterns('*')).toEqual(['*']);
  });

  it.each(['', ' , ', 'news:*:x*', '*news', 'a b', 'news**', 'ü*', 'x'.repeat(101)])('refuses the list %j', (input) => {
    expect(() => parseInboxTopicPatterns(input)).toThrow();
  });

  it('refuses more than 50 patterns', () => {
    const many = Array.from({ length: 51 }, (_, i) => `t${i}`).join(',');
    expect(() => parseInboxTopicPatterns(many)).toThrow(/At most 50/);
  });

  it('takes a cap from 1 to 1000', () => {
    expect(parseInboxTopicsPerSubscriber('20')).toBe(20);
    expect(parseInboxTopicsPerSubscriber('1000')).toBe(1000);
    for (const input of ['0', '1001', '-1', '2.5', 'x', '', '1e3'])
      expect(() => parseInboxTopicsPerSubscriber(input)).toThrow(/1 to 1000/);
  });
});
