import { describe, expect, it } from '@jest/globals';
import { ReadCoalescer } from './read-coalescer.js';

interface Failure {
  jobId: string;
}

/** A batch whose stages run until the test ends them. */
interface Run {
  environmentId: string;
  jobIds: string[];
  finalAttempt: boolean;
  endRead: () => void;
  failRead: (error: Error) => void;
  finish: (failures?: Failure[]) => void;
  finished: Promise<Failure[]>;
}

function coalescer(reads = 1, maxJobs = 500) {
  const runs: Run[] = [];
  const subject = new ReadCoalescer<Run, Failure>(
    {
      read: (environmentId, jobIds, finalAttempt) =>
        new Promise<Run>((endRead, failRead) => {
          let finish!: Run['finish'];
          const finished = new Promise<Failure[]>((resolve) => (finish = (failures = []) => resolve(failures)));
          const run: Run = {
            environmentId,
            jobIds,
            finalAttempt,
            endRead: () => endRead(run),
            failRead,
            finish,
            finished,
          };
          runs.push(run);
        }),
      finish: (run) => run.finished,
    },
    reads,
    maxJobs,
  );
  return { subject, runs };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ReadCoalescer', () => {
  it('starts an entry at once when its environment is not reading', () => {
    const { subject, runs } = coalescer();
    void subject.submit('env-a', ['1'], false);
    expect(runs.map((run) => run.jobIds)).toEqual([['1']]);
  });

  it('merges the entries that arrive during a read into the next batch, and only those of the same environment', async () => {
    const { subject, runs } = coalescer();
    const first = subject.submit('env-a', ['1'], false);
    const second = subject.submit('env-a', ['2'], false);
    const third = subject.submit('env-a', ['3', '4'], false);
    const other = subject.submit('env-b', ['9'], false);
    expect(runs.map((run) => [run.environmentId, run.jobIds])).toEqual([
      ['env-a', ['1']],
      ['env-b', ['9']],
    ]);

    runs[0].endRead();
    await settle();
    expect(runs.map((run) => run.jobIds)).toEqual([['1'], ['9'], ['2', '3', '4']]);

    // A merged batch's failures go back to the entries whose jobs failed.
    runs[2].endRead();
    runs[2].finish([{ jobId: '3' }]);
    runs[0].finish();
    runs[1].endRead();
    runs[1].finish();
    expect(await first).toEqual([]);
    expect(await second).toEqual([]);
    expect(await third).toEqual([{ jobId: '3' }]);
    expect(await other).toEqual([]);
  });

  it('lets the next batch read while the one before still runs its steps, and settles an entry when its batch finishes', async () => {
    const { subject, runs } = coalescer();
    let settled = false;
    const slow = subject.submit('env-a', ['1'], false).then(() => (settled = true));
    void subject.submit('env-a', ['2'], false);
    runs[0].endRead();
    await settle();
    expect(runs).toHaveLength(2);
    runs[1].endRead();
    await settle();
    void subject.submit('env-a', ['3'], false);
    expect(runs.map((run) => run.jobIds)).toEqual([['1'], ['2'], ['3']]);
    expect(settled).toBe(false);
    runs[0].finish();
    await slow;
    expect(settled).toBe(true);
  });

  it('rejects the entries of a batch whose read fails, and lets the next batch read', async () => {
    const { subject, runs } = coalescer();
    const failing = subject.submit('env-a', ['1'], false);
    const next = subject.submit('env-a', ['2'], false);
    runs[0].failRead(new Error('database gone'));
    await expect(failing).rejects.toThrow('database gone');
    await settle();
    expect(runs.map((run) => run.jobIds)).toEqual([['1'], ['2']]);
    runs[1].endRead();
    runs[1].finish();
    await next;
  });

  it('keeps a batch within maxJobs and merges only entries on the same attempt kind', async () => {
    const { subject, runs } = coalescer(1, 3);
    void subject.submit('env-a', ['1'], false);
    void subject.submit('env-a', ['2', '3'], false);
    void subject.submit('env-a', ['4', '5'], false);
    void subject.submit('env-a', ['6'], true);
    void subject.submit('env-a', ['7'], false);
    runs[0].endRead();
    await settle();
    expect(runs[1]).toMatchObject({ jobIds: ['2', '3', '7'], finalAttempt: false });
    runs[1].endRead();
    await settle();
    expect(runs[2]).toMatchObject({ jobIds: ['4', '5'], finalAttempt: false });
    runs[2].endRead();
    await settle();
    expect(runs[3]).toMatchObject({ jobIds: ['6'], finalAttempt: true });
  });

  it('runs a job named by two merged entries once', async () => {
    const { subject, runs } = coalescer();
    void subject.submit('env-a', ['1'], false);
    void subject.submit('env-a', ['2'], false);
    void subject.submit('env-a', ['2', '3'], false);
    runs[0].endRead();
    await settle();
    expect(runs[1].jobIds).toEqual(['2', '3']);
  });
});
