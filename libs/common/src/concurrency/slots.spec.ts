import { describe, expect, it } from '@jest/globals';
import { Slots } from './slots.js';

describe('Slots', () => {
  it('grants in arrival order once enough slots are free; a request above the capacity takes all of it', async () => {
    const slots = new Slots(10);
    const order: string[] = [];
    const first = await slots.take(6);
    const second = slots.take(6).then((release) => (order.push('second'), release));
    const third = slots.take(2).then((release) => (order.push('third'), release));
    await new Promise((resolve) => setImmediate(resolve));
    // The 2-slot request fits but waits behind the earlier 6-slot one.
    expect(order).toEqual([]);
    first();
    const releaseSecond = await second;
    (await third)();
    expect(order).toEqual(['second', 'third']);
    releaseSecond();
    const all = await slots.take(50);
    let more = false;
    void slots.take(1).then(() => (more = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(more).toBe(false);
    all();
    await new Promise((resolve) => setImmediate(resolve));
    expect(more).toBe(true);
  });
});
