export interface LaneLimits {
  /** Units the process runs at once, over every environment. */
  capacity: number;
  /** Units one environment runs at once. */
  perEnvironment: number;
  /** Takes one environment may have waiting in its lane; beyond, takeUnlessFull answers `full`. */
  laneLimit?: number;
}

/** Granted units: call once when the work ends. */
export type Release = () => void;

interface Waiter {
  units: number;
  since: number;
  grant: (release: Release) => void;
  refuse: (error: Error) => void;
}

/** What a take still waiting in its lane rejects with when the lanes are emptied (shutdown). */
export class LaneEmptiedError extends Error {}

/**
 * Shares a process's work slots between environments: one environment runs at most
 * `perEnvironment` units; what it asks beyond waits in its own lane, and lanes are served round-robin
 * as units free up, so a slow environment delays only itself. Pure bookkeeping, no I/O.
 */
export class EnvironmentLanes {
  private free: number;
  private readonly running = new Map<string, number>();
  /** Non-empty lanes only, in serving order: the one served last moves to the end. */
  private readonly lanes = new Map<string, Waiter[]>();
  private waitingTakes = 0;

  constructor(
    private readonly limits: LaneLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.free = limits.capacity;
  }

  /**
   * A promise of the units (at most `perEnvironment`). `since`: when the work began waiting (for
   * oldestWaitingSince), now by default.
   */
  take(environmentId: string, units = 1, since = this.now()): Promise<Release> {
    const wanted = Math.min(units, this.limits.perEnvironment, this.limits.capacity);
    const waiting = new Promise<Release>((grant, refuse) => {
      const waiter = { units: wanted, since, grant, refuse };
      const lane = this.lanes.get(environmentId);
      if (lane) lane.push(waiter);
      else this.lanes.set(environmentId, [waiter]);
    });
    this.waitingTakes++;
    this.serve();
    return waiting;
  }

  /** As take, or `full` when the environment's lane already holds `laneLimit` takes: the caller hands that work back. */
  takeUnlessFull(environmentId: string, units = 1, since = this.now()): Promise<Release> | 'full' {
    if ((this.lanes.get(environmentId)?.length ?? 0) >= (this.limits.laneLimit ?? Infinity)) return 'full';
    return this.take(environmentId, units, since);
  }

  /** Refuses every take still waiting (LaneEmptiedError); running ones keep their units. */
  empty(): void {
    const lanes = [...this.lanes.values()];
    this.lanes.clear();
    this.waitingTakes = 0;
    for (const waiter of lanes.flat()) waiter.refuse(new LaneEmptiedError('the lanes were emptied'));
  }

  /** Takes waiting in lanes, over every environment. */
  get waiting(): number {
    return this.waitingTakes;
  }

  /** When the longest-waiting take started waiting, if any waits. */
  oldestWaitingSince(): number | undefined {
    let oldest: number | undefined;
    for (const lane of this.lanes.values()) if (oldest === undefined || lane[0].since < oldest) oldest = lane[0].since;
    return oldest;
  }

  /** Units running per environment (environments running nothing are left out). */
  runningByEnvironment(): ReadonlyMap<string, number> {
    return this.running;
  }

  private start(environmentId: string, units: number): Release {
    this.free -= units;
    this.running.set(environmentId, (this.running.get(environmentId) ?? 0) + units);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.free += units;
      const left = this.running.get(environmentId)! - units;
      if (left === 0) this.running.delete(environmentId);
      else this.running.set(environmentId, left);
      this.serve();
    };
  }

  /**
   * Grants lane heads round-robin. An environment at its own limit is passed over; a head that does
   * not fit in the free units stops the round, so a large take is not starved by smaller ones.
   */
  private serve(): void {
    let granted = true;
    while (granted && this.free > 0) {
      granted = false;
      for (const [environmentId, lane] of this.lanes) {
        const head = lane[0];
        if ((this.running.get(environmentId) ?? 0) + head.units > this.limits.perEnvironment) continue;
        if (this.free < head.units) return;
        lane.shift();
        this.waitingTakes--;
        // Served: the environment goes to the end of the round (or leaves it when its lane is empty).
        this.lanes.delete(environmentId);
        if (lane.length > 0) this.lanes.set(environmentId, lane);
        head.grant(this.start(environmentId, head.units));
        granted = true;
        break;
      }
    }
  }
}
