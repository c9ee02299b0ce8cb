/**
 * A counting semaphore: `take(count)` resolves, in arrival order, once `count` slots are free, with
 * the function that gives them back. A request larger than the capacity takes all of it.
 */
export class Slots {
  private free: number;
  private readonly waiting: { count: number; grant: () => void }[] = [];

  constructor(private readonly capacity: number) {
    this.free = capacity;
  }

  async take(count: number): Promise<() => void> {
    const wanted = Math.min(count, this.capacity);
    if (this.waiting.length > 0 || this.free < wanted)
      await new Promise<void>((grant) => this.waiting.push({ count: wanted, grant }));
    else this.free -= wanted;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.free += wanted;
      this.grantWaiting();
    };
  }

  private grantWaiting(): void {
    while (this.waiting.length > 0 && this.free >= this.waiting[0].count) {
      const next = this.waiting.shift()!;
      this.free -= next.count;
      next.grant();
    }
  }
}
