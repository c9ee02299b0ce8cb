/**
 * The one source of "now". Tests replace it to place a subscriber inside or outside a schedule.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock tests can set and move; it still advances with real time from the set point. */
export class AdjustableClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  set(date: Date): void {
    this.offsetMs = date.getTime() - Date.now();
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
