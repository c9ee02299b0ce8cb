/**
 * The two stages of a merged batch as the coalescer drives them. The coalescer awaits `read` itself
 * and lets the environment's next batch read once it settles, so the end of a read is the end of a
 * promise: nothing to call back, hence nothing to call twice or to forget when a read fails. What
 * `read` resolves with is handed to `finish` as it is.
 */
export interface BatchStages<R, F> {
  /** Reads the batch (every query of the batch that reads). */
  read(environmentId: string, jobIds: string[], finalAttempt: boolean): Promise<R>;
  /** Runs and records what was read; resolves with the failed jobs. */
  finish(read: R): Promise<F[]>;
}

interface Entry<F> {
  jobIds: string[];
  finalAttempt: boolean;
  resolve: (failures: F[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Merges the queue entries of one environment that arrive while `readsPerEnvironment` of its batches
 * are being read. Every batch pays a fixed number of queries (rows, claim, context, gates) whatever
 * its size, so entries of one job each — a trickle of triggers, or the queued steps of a failing
 * endpoint all deferred at once when its circuit opens — would otherwise cost that many queries per
 * job. Only the read is serialized: once a batch is read, its steps run and its outcomes are written
 * while the next batch reads, so a slow provider call holds up no other entry. An entry that arrives
 * while its environment has a read to spare starts at once, so a quiet environment waits for nothing.
 */
export class ReadCoalescer<R, F extends { jobId: string }> {
  private readonly waiting = new Map<string, Entry<F>[]>();
  private readonly reading = new Map<string, number>();

  constructor(
    private readonly stages: BatchStages<R, F>,
    private readonly readsPerEnvironment: number,
    private readonly maxJobs: number,
  ) {}

  /** Runs the entry's jobs, alone or merged with other entries; resolves with the failures among its own jobs. */
  submit(environmentId: string, jobIds: string[], finalAttempt: boolean): Promise<F[]> {
    const promise = new Promise<F[]>((resolve, reject) => {
      const entry = { jobIds, finalAttempt, resolve, reject };
      const queue = this.waiting.get(environmentId);
      if (queue) queue.push(entry);
      else this.waiting.set(environmentId, [entry]);
    });
    this.pump(environmentId);
    return promise;
  }

  private pump(environmentId: string): void {
    for (;;) {
      const queue = this.waiting.get(environmentId);
      const reads = this.reading.get(environmentId) ?? 0;
      if (!queue || reads >= this.readsPerEnvironment) return;
      const batch = takeBatch(queue, this.maxJobs);
      if (queue.length === 0) this.waiting.delete(environmentId);
      this.reading.set(environmentId, reads + 1);
      void this.run(environmentId, batch);
    }
  }

  /** Settles each entry of the batch with the failures among its own jobs, or with the batch's error. */
  private async run(environmentId: string, batch: Entry<F>[]): Promise<void> {
    const jobIds = [...new Set(batch.flatMap((entry) => entry.jobIds))];
    try {
      const failures = await this.stages.finish(await this.read(environmentId, jobIds, batch[0].finalAttempt));
      for (const entry of batch) {
        const own = new Set(entry.jobIds);
        entry.resolve(failures.filter((failure) => own.has(failure.jobId)));
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }

  /** The batch's read stage; once it settles, the environment's next batch may read. */
  private async read(environmentId: string, jobIds: string[], finalAttempt: boolean): Promise<R> {
    try {
      return await this.stages.read(environmentId, jobIds, finalAttempt);
    } finally {
      const left = this.reading.get(environmentId)! - 1;
      if (left === 0) this.reading.delete(environmentId);
      else this.reading.set(environmentId, left);
      this.pump(environmentId);
    }
  }
}

/**
 * The head entry and the entries after it that share its finalAttempt (it decides how errors end),
 * up to `maxJobs` jobs; the head goes even when larger. Entries left out keep their place.
 */
function takeBatch<F>(queue: Entry<F>[], maxJobs: number): Entry<F>[] {
  const head = queue.shift()!;
  const batch = [head];
  let jobs = head.jobIds.length;
  for (let index = 0; index < queue.length && jobs < maxJobs;) {
    const entry = queue[index];
    if (entry.finalAttempt !== head.finalAttempt || jobs + entry.jobIds.length > maxJobs) {
      index++;
      continue;
    }
    batch.push(entry);
    jobs += entry.jobIds.length;
    queue.splice(index, 1);
  }
  return batch;
}
