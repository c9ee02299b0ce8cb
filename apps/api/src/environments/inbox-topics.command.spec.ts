import { describe, expect, it } from '@jest/globals';
import { parseInboxTopicsCommand } from './inbox-topics.command.js';

describe('environment inbox-topics (CLI arguments)', () => {
  it('takes the flags in any order; a flag left out keeps its value', () => {
    expect(
      parseInboxTopicsCommand([
        '--allow',
        'news:*,product-*',
        '--max-per-subscriber',
        '20',
        '--environment',
        'Development',
      ]),
    ).toEqual({ environmentName: 'Development', change: { patterns: ['news:*', 'product-*'], perSubscriber: 20 } });
    expect(parseInboxTopicsCommand(['--environment', 'Production', '--allow', 'none'])).toEqual({
      environmentName: 'Production',
      change: { patterns: [], perSubscriber: undefined },
    });
    expect(parseInboxTopicsCommand(['--max-per-subscriber', '5', '--environment', 'Production'])).toEqual({
      environmentName: 'Production',
      change: { patterns: undefined, perSubscriber: 5 },
    });
  });

  it.each([
    [[]],
    [['--environment', 'Development']],
    [['--allow', 'news:*']],
    [['--allow', 'news:*', '--environment']],
    [['--allow', 'a', '--allow', 'b', '--environment', 'Development']],
    [['--deny', 'a', '--environment', 'Development']],
  ])('answers no command (the usage) for %j', (args) => {
    expect(parseInboxTopicsCommand(args)).toBeUndefined();
  });

  it('names a bad pattern or cap', () => {
    expect(() => parseInboxTopicsCommand(['--allow', '*news', '--environment', 'Development'])).toThrow(/\*news/);
    expect(() => parseInboxTopicsCommand(['--max-per-subscriber', '0', '--environment', 'Development'])).toThrow(
      /1 to 1000/,
    );
  });
});
