/** Called once a batch has been read (rows claimed, context loaded): the next batch of its environment may start. */
export type ReadDone = () => void;

/** Runs one merged batch; calls `readDone` when its reads are over, and resolves with its failed jobs. */
export type RunMerged<F> = (
  environmentId: string,
  jobIds: string[],
  finalAttempt: boolean,
  readDone: ReadDone,
) => Promise<F[]>;

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
export class ReadCoalescer<F extends { jobId: string }> {
  private readonly waiting = new Map<string, Entry<F>[]>();
  private readonly reading = new Map<string, number>();

  constructor(
    private readonly run: RunMerged<F>,
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
      let read = false;
      const readDone = () => {
        if (read) return;
        read = true;
        const left = this.reading.get(environmentId)! - 1;
        if (left === 0) this.reading.delete(environmentId);
        else this.reading.set(environmentId, left);
        this.pump(environmentId);
      };
      const jobIds = [...new Set(batch.flatMap((entry) => entry.jobIds))];
      this.run(environmentId, jobIds, batch[0].finalAttempt, readDone)
        .then(
          (failures) => {
            for (const entry of batch) {
              const own = new Set(entry.jobIds);
              entry.resolve(failures.filter((failure) => own.has(failure.jobId)));
            }
          },
          (error: unknown) => {
            for (const entry of batch) entry.reject(error);
          },
        )
        .finally(readDone);
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
