import { describe, expect, it } from '@jest/globals';
import { GroupCommit } from './group-commit.js';

/** A writer that records each call and refuses any batch holding a "poison" item, as a constraint would. */
function recordingWriter() {
  const calls: string[][] = [];
  const written: string[] = [];
  const write = async (_group: string, items: string[]) => {
    calls.push(items);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (items.includes('poison')) throw new Error('constraint violated');
    written.push(...items);
  };
  return { calls, written, write };
}

const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const retryUnlessUnreachable = (error: unknown) => (error as { code?: string }).code !== 'ECONNREFUSED';

describe('GroupCommit', () => {
  it('writes items submitted together in one call, and items arriving meanwhile in the next', async () => {
    const writer = recordingWriter();
    const commit = new GroupCommit<string>(writer.write);
    const first = ['a', 'b', 'c'].map((item) => commit.submit('env', item));
    await new Promise((resolve) => setImmediate(resolve));
    const second = ['d', 'e'].map((item) => commit.submit('env', item));
    await Promise.all([...first, ...second]);
    expect(writer.calls).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('keeps groups apart and cuts batches at maxBatch', async () => {
    const writer = recordingWriter();
    const commit = new GroupCommit<string>(writer.write, { maxBatch: 2 });
    await Promise.all([
      commit.submit('one', 'a'),
      commit.submit('two', 'b'),
      commit.submit('one', 'c'),
      commit.submit('one', 'd'),
    ]);
    expect(writer.calls).toEqual(expect.arrayContaining([['a', 'c'], ['b'], ['d']]));
    expect(writer.calls).toHaveLength(3);
  });

  it('hands each caller its own result', async () => {
    const commit = new GroupCommit<number, number>((_group, items) => Promise.resolve(items.map((item) => item * 10)));
    expect(await Promise.all([1, 2, 3].map((item) => commit.submit('env', item)))).toEqual([10, 20, 30]);
  });

  it('fails every caller of a failed write by default', async () => {
    const writer = recordingWriter();
    const commit = new GroupCommit<string>(writer.write);
    const results = await Promise.allSettled(['a', 'poison', 'b'].map((item) => commit.submit('env', item)));
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(writer.calls).toEqual([['a', 'poison', 'b']]);
  });

  it('with retryAlone, writes a failed batch again item by item: only the bad item fails', async () => {
    const writer = recordingWriter();
    const commit = new GroupCommit<string>(writer.write, { retryAlone: retryUnlessUnreachable });
    const results = await Promise.allSettled(['a', 'poison', 'b'].map((item) => commit.submit('env', item)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(writer.written.sort()).toEqual(['a', 'b']);
  });

  it('does not retry item by item an error retryAlone refuses (the database is unreachable)', async () => {
    const calls: string[][] = [];
    const commit = new GroupCommit<string>(
      (_group, items) => {
        calls.push(items);
        return Promise.reject(unreachable());
      },
      { retryAlone: retryUnlessUnreachable },
    );
    const results = await Promise.allSettled(['a', 'b'].map((item) => commit.submit('env', item)));
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(calls).toEqual([['a', 'b']]);
  });
});
