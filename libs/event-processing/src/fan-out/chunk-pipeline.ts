/**
 * Writes a fan-out's chunks with up to `depth` transactions in flight, so the worker reads and builds
 * the next chunk while PostgreSQL commits the last ones. A write answers whether the fan-out may go
 * on (false: the event was canceled); the first failure is thrown by the next push or by drain.
 */
export class ChunkPipeline<Chunk> {
  private readonly inFlight: Promise<void>[] = [];
  private failure?: { error: unknown };
  /** Set once a write found the event canceled. */
  stopped = false;

  constructor(
    private readonly write: (chunk: Chunk) => Promise<boolean>,
    private readonly depth: number,
  ) {}

  async push(chunk: Chunk): Promise<void> {
    while (this.inFlight.length >= this.depth) await this.inFlight.shift();
    this.rethrow();
    if (this.stopped) return;
    this.inFlight.push(
      this.write(chunk).then(
        (goOn) => void (this.stopped ||= !goOn),
        (error: unknown) => void (this.failure ??= { error }),
      ),
    );
  }

  /** Waits for every write in flight. */
  async drain(): Promise<void> {
    await Promise.all(this.inFlight.splice(0));
    this.rethrow();
  }

  private rethrow(): void {
    if (this.failure) throw this.failure.error;
  }
}
