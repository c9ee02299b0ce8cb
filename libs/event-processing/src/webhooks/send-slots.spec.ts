import { describe, expect, it } from '@jest/globals';
import { SendSlots } from './send-slots.js';

describe('SendSlots', () => {
  it('lets `limit` holders in at once and hands each freed slot to the longest waiter', async () => {
    const slots = new SendSlots(2);
    const order: string[] = [];
    await slots.acquire();
    await slots.acquire();
    const third = slots.acquire().then(() => order.push('third'));
    const fourth = slots.acquire().then(() => order.push('fourth'));
    await Promise.resolve();
    expect(order).toEqual([]);
    slots.release();
    await third;
    expect(order).toEqual(['third']);
    slots.release();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
    // Two holders now (third, fourth): one release frees a slot nobody waits for, so the next acquire is immediate.
    slots.release();
    let fifth = false;
    const acquired = slots.acquire().then(() => (fifth = true));
    await acquired;
    expect(fifth).toBe(true);
  });
});
