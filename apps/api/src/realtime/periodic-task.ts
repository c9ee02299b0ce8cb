/**
 * Runs `work` every `intervalMs`, counted from the end of the previous run, so two runs never overlap
 * however slow one is; the timer does not keep the process alive. `stop` waits for a run in progress.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly work: () => Promise<void>,
  ) {}

  start(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.work().finally(() => this.start());
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
