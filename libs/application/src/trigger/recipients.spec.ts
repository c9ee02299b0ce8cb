import { describe, expect, it } from '@jest/globals';
import { parseRecipients } from './recipients.js';

describe('parseRecipients', () => {
  it('keeps a subscriber listed twice once, the last definition winning', () => {
    const { subscribers } = parseRecipients(['a', { subscriberId: 'a', firstName: 'Ada' }, 'b', 'a']);
    expect(subscribers).toEqual([
      { subscriberId: 'a', fields: { subscriberId: 'a', firstName: 'Ada' } },
      { subscriberId: 'b' },
    ]);
  });

  it('merges a repeated topic: only subscribers every copy excludes stay out', () => {
    const topic = (exclude?: string[]) => ({ type: 'Topic', topicKey: 'news', ...(exclude ? { exclude } : {}) });
    expect(parseRecipients([topic(['x', 'y']), topic(['y', 'z']), topic(['y', 'y'])]).topics).toEqual([
      { topicKey: 'news', exclude: ['y'] },
    ]);
    expect(parseRecipients([topic(['x']), topic()]).topics).toEqual([{ topicKey: 'news', exclude: [] }]);
    expect(parseRecipients(Array.from({ length: 5000 }, () => topic())).topics).toHaveLength(1);
  });

  it('keeps distinct topics apart and reports bad entries by index', () => {
    const parsed = parseRecipients([{ type: 'Topic', topicKey: 'a' }, { type: 'Topic', topicKey: 'b' }, 42]);
    expect(parsed.topics.map((topic) => topic.topicKey)).toEqual(['a', 'b']);
    expect(parsed.errors).toEqual(['to[2]: must be a subscriberId, a subscriber object or a topic object']);
  });
});
