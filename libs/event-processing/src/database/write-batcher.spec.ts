import { describe, expect, it } from '@jest/globals';
import { WriteBatcher } from './write-batcher.js';

/** A writer that records each call and refuses any batch holding a "poison" item, as a constraint would. */
function recordingWriter() {
  const calls: string[][] = [];
  const written: string[] = [];
  const write = async (_group: string, items: string[]) => {
    calls.push(items);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (items.includes('poison')) throw new Error('constraint violated');
    written.push(...items);
    return items.map(() => undefined);
  };
  return { calls, written, write };
}

describe('WriteBatcher', () => {
  it('writes items submitted together in one call, and items arriving meanwhile in the next', async () => {
    const writer = recordingWriter();
    const batcher = new WriteBatcher(writer.write);
    const first = ['a', 'b', 'c'].map((item) => batcher.submit('env', item));
    await new Promise((resolve) => setImmediate(resolve));
    const second = ['d', 'e'].map((item) => batcher.submit('env', item));
    await Promise.all([...first, ...second]);
    expect(writer.calls).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('keeps groups apart and cuts batches at maxBatch', async () => {
    const writer = recordingWriter();
    const batcher = new WriteBatcher(writer.write, 2);
    await Promise.all([
      batcher.submit('one', 'a'),
      batcher.submit('two', 'b'),
      batcher.submit('one', 'c'),
      batcher.submit('one', 'd'),
    ]);
    expect(writer.calls).toEqual(expect.arrayContaining([['a', 'c'], ['b'], ['d']]));
    expect(writer.calls).toHaveLength(3);
  });

  it('a failing batch is written again item by item: only the bad item fails', async () => {
    const writer = recordingWriter();
    const batcher = new WriteBatcher(writer.write);
    const results = await Promise.allSettled(['a', 'poison', 'b'].map((item) => batcher.submit('env', item)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(writer.written.sort()).toEqual(['a', 'b']);
  });

  it('hands each caller its own result', async () => {
    const batcher = new WriteBatcher<number, number>((_group, items) =>
      Promise.resolve(items.map((item) => item * 10)),
    );
    expect(await Promise.all([1, 2, 3].map((item) => batcher.submit('env', item)))).toEqual([10, 20, 30]);
  });

  it('does not retry item by item when the database is unreachable', async () => {
    const calls: string[][] = [];
    const batcher = new WriteBatcher<string>((_group, items): Promise<void[]> => {
      calls.push(items);
      return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    });
    const results = await Promise.allSettled(['a', 'b'].map((item) => batcher.submit('env', item)));
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(calls).toEqual([['a', 'b']]);
  });
});
