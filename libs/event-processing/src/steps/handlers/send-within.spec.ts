import { describe, expect, it } from '@jest/globals';
import { sendWithin } from './send-within.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sendWithin', () => {
  it('runs at most `parallel` sends at once and keeps the results in order', async () => {
    let running = 0;
    let most = 0;
    const results = await sendWithin([30, 10, 20, 5, 15], 2, 10_000, async (ms) => {
      most = Math.max(most, ++running);
      await sleep(ms);
      running--;
      return ms * 2;
    });
    expect(results).toEqual([60, 20, 40, 10, 30]);
    expect(most).toBe(2);
  });

  it('starts nothing after the deadline: those items have no result', async () => {
    const started: number[] = [];
    const results = await sendWithin([1, 2, 3, 4], 2, 50, async (item) => {
      started.push(item);
      await sleep(80);
      return item;
    });
    expect(started).toEqual([1, 2]);
    expect(results).toEqual([1, 2, undefined, undefined]);
  });
});
