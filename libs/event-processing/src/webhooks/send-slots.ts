/**
 * Requests to one endpoint in flight at once, shared by the overlapping rounds of its lane: a slot
 * freed goes to the longest waiter, so requests start in the order they asked for one.
 */
export class SendSlots {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async acquire(): Promise<void> {
    if (this.inFlight < this.limit) {
      this.inFlight++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }
}
