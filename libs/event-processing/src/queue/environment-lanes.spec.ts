import { describe, expect, it } from '@jest/globals';
import { EnvironmentLanes, LaneEmptiedError, type Release } from './environment-lanes.js';

/** Takes and records the order in which they are granted. */
function recorder(lanes: EnvironmentLanes) {
  const granted: string[] = [];
  const releases = new Map<string, Release>();
  const take = (environmentId: string, label: string, units = 1) => {
    const taken = lanes.takeUnlessFull(environmentId, units);
    if (taken === 'full') return 'full';
    void taken.then((release) => {
      granted.push(label);
      releases.set(label, release);
    });
    return 'taken';
  };
  const release = async (label: string) => {
    releases.get(label)!();
    await settle();
  };
  return { granted, take, release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('EnvironmentLanes', () => {
  it('runs at most perEnvironment units of one environment while another environment still gets slots', async () => {
    const lanes = new EnvironmentLanes({ capacity: 4, perEnvironment: 2, laneLimit: 10 });
    const { granted, take } = recorder(lanes);
    for (const label of ['a1', 'a2', 'a3', 'a4']) take('A', label);
    take('B', 'b1');
    await settle();
    expect(granted).toEqual(['a1', 'a2', 'b1']);
    expect(lanes.waiting).toBe(2);
    expect(Object.fromEntries(lanes.runningByEnvironment())).toEqual({ A: 2, B: 1 });
  });

  it('serves waiting lanes round-robin as slots free up', async () => {
    const lanes = new EnvironmentLanes({ capacity: 2, perEnvironment: 2, laneLimit: 10 });
    const { granted, take, release } = recorder(lanes);
    for (const label of ['a1', 'a2', 'a3', 'a4']) take('A', label);
    for (const label of ['b1', 'b2']) take('B', label);
    take('C', 'c1');
    await settle();
    expect(granted).toEqual(['a1', 'a2']);
    await release('a1');
    await release('a2');
    await release('b1');
    await release('c1');
    expect(granted).toEqual(['a1', 'a2', 'a3', 'b1', 'c1', 'a4']);
  });

  it("answers full once an environment's lane holds laneLimit takes, and still takes other environments", async () => {
    const lanes = new EnvironmentLanes({ capacity: 4, perEnvironment: 1, laneLimit: 2 });
    const { granted, take } = recorder(lanes);
    expect(['a1', 'a2', 'a3', 'a4'].map((label) => take('A', label))).toEqual(['taken', 'taken', 'taken', 'full']);
    expect(take('B', 'b1')).toBe('taken');
    await settle();
    expect(granted).toEqual(['a1', 'b1']);
  });

  it('counts weighted takes, capped at perEnvironment, and lets a large take through before later small ones', async () => {
    const lanes = new EnvironmentLanes({ capacity: 10, perEnvironment: 6 });
    const { granted, take, release } = recorder(lanes);
    take('A', 'a-500', 500);
    take('B', 'b-5', 5);
    take('C', 'c-3', 3);
    await settle();
    expect(granted).toEqual(['a-500']);
    expect(Object.fromEntries(lanes.runningByEnvironment())).toEqual({ A: 6 });
    await release('a-500');
    expect(granted).toEqual(['a-500', 'b-5', 'c-3']);
  });

  it('reports when the longest wait began, and nothing once every lane is served', async () => {
    let now = 1_000;
    const lanes = new EnvironmentLanes({ capacity: 1, perEnvironment: 1, laneLimit: 10 }, () => now);
    const { take, release } = recorder(lanes);
    take('A', 'a1');
    await settle();
    expect(lanes.oldestWaitingSince()).toBeUndefined();
    now = 2_000;
    take('B', 'b1');
    now = 3_000;
    take('C', 'c1');
    expect(lanes.oldestWaitingSince()).toBe(2_000);
    await release('a1');
    expect(lanes.oldestWaitingSince()).toBe(3_000);
    await release('b1');
    expect(lanes.oldestWaitingSince()).toBeUndefined();
    expect(lanes.waiting).toBe(0);
  });

  it('a release counts once', async () => {
    const lanes = new EnvironmentLanes({ capacity: 1, perEnvironment: 1, laneLimit: 10 });
    const { granted, take, release } = recorder(lanes);
    take('A', 'a1');
    take('B', 'b1');
    take('C', 'c1');
    await settle();
    await release('a1');
    await release('a1');
    expect(granted).toEqual(['a1', 'b1']);
  });

  it('empty refuses every waiting take and leaves running ones and later takes alone', async () => {
    const lanes = new EnvironmentLanes({ capacity: 1, perEnvironment: 1 });
    const running = lanes.take('A');
    const waiting = [lanes.take('A'), lanes.take('B')];
    lanes.empty();
    for (const take of waiting) await expect(take).rejects.toBeInstanceOf(LaneEmptiedError);
    expect([lanes.waiting, lanes.oldestWaitingSince()]).toEqual([0, undefined]);
    (await running)();
    await expect(lanes.take('C')).resolves.toBeInstanceOf(Function);
  });
});
