import { describe, expect, it } from '@jest/globals';
import { CircuitBreakers } from './circuit-breakers.js';

function breakers(threshold = 3, openMs = 1_000) {
  const clock = { now: 0 };
  return { circuits: new CircuitBreakers(threshold, openMs, () => clock.now), clock };
}

describe('CircuitBreakers', () => {
  it('opens after `threshold` failures in a row and says how long sends wait', () => {
    const { circuits, clock } = breakers();
    circuits.failed('a');
    circuits.failed('a');
    expect(circuits.blockedFor('a')).toBe(0);
    circuits.failed('a');
    clock.now = 400;
    expect(circuits.blockedFor('a')).toBe(600);
    expect(circuits.blockedFor('b')).toBe(0);
  });

  it('a success in between starts the count again', () => {
    const { circuits } = breakers();
    circuits.failed('a');
    circuits.failed('a');
    circuits.succeeded('a');
    circuits.failed('a');
    circuits.failed('a');
    expect(circuits.blockedFor('a')).toBe(0);
  });

  it('after the window one trial send goes; the others wait; its failure opens the circuit again', () => {
    const { circuits, clock } = breakers();
    for (let i = 0; i < 3; i++) circuits.failed('a');
    clock.now = 1_000;
    expect(circuits.blockedFor('a')).toBe(0);
    expect(circuits.blockedFor('a')).toBe(1_000);
    circuits.failed('a');
    clock.now = 1_500;
    expect(circuits.blockedFor('a')).toBe(500);
  });

  it('the trial’s success closes the circuit', () => {
    const { circuits, clock } = breakers();
    for (let i = 0; i < 3; i++) circuits.failed('a');
    clock.now = 1_000;
    expect(circuits.blockedFor('a')).toBe(0);
    circuits.succeeded('a');
    expect(circuits.blockedFor('a')).toBe(0);
    expect(circuits.blockedFor('a')).toBe(0);
  });

  it('a trial that never reports back stops counting after a window', () => {
    const { circuits, clock } = breakers();
    for (let i = 0; i < 3; i++) circuits.failed('a');
    clock.now = 1_000;
    expect(circuits.blockedFor('a')).toBe(0);
    clock.now = 2_000;
    expect(circuits.blockedFor('a')).toBe(0);
  });

  it('a threshold of 0 turns circuits off', () => {
    const { circuits } = breakers(0);
    for (let i = 0; i < 10; i++) circuits.failed('a');
    expect(circuits.blockedFor('a')).toBe(0);
  });
});
