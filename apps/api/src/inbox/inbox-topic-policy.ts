import { DomainError } from '#common';

/**
 * Which topics inbox sessions may join (and create): topic keys, or key prefixes ending in `*`; a lone
 * `*` opens every topic, which is what Novu does. No pattern, the default, opens none.
 */
const TOPIC_PATTERN = /^(?:[A-Za-z0-9_:.-]+\*?|\*)$/;
const MAX_PATTERNS = 50;
const MAX_PATTERN_LENGTH = 100;
/** A bound on the bound: session joins are rows a browser makes, and a tenant typo should not lift it. */
const MAX_INBOX_TOPICS_PER_SUBSCRIBER = 1000;

/** `news:*,product-*` → its patterns; `none` → no pattern. */
export function parseInboxTopicPatterns(input: string): string[] {
  if (input.trim() === 'none') return [];
  const patterns = [...new Set(input.split(',').map((part) => part.trim()))].filter((part) => part !== '');
  if (patterns.length === 0) throw DomainError.validation('allow', 'Give topic key patterns, or none', input);
  if (patterns.length > MAX_PATTERNS) throw DomainError.validation('allow', `At most ${MAX_PATTERNS} patterns`, input);
  const invalid = patterns.find((pattern) => pattern.length > MAX_PATTERN_LENGTH || !TOPIC_PATTERN.test(pattern));
  if (invalid !== undefined)
    throw DomainError.validation(
      'allow',
      `Invalid pattern ${invalid}: a topic key (letters, digits, _ : . -, up to ${MAX_PATTERN_LENGTH}) with an optional trailing *`,
      invalid,
    );
  return patterns;
}

export function parseInboxTopicsPerSubscriber(input: string): number {
  const value = /^\d+$/.test(input) ? Number(input) : NaN;
  if (!(value >= 1 && value <= MAX_INBOX_TOPICS_PER_SUBSCRIBER))
    throw DomainError.validation(
      'maxPerSubscriber',
      `The cap is a whole number from 1 to ${MAX_INBOX_TOPICS_PER_SUBSCRIBER}`,
      input,
    );
  return value;
}

export function inboxTopicAllowed(patterns: readonly string[], key: string): boolean {
  return patterns.some((pattern) => (pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern));
}
