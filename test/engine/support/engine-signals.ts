import type { INestApplicationContext } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job } from 'bullmq';
import { EngineEvents, QueueConsumer } from '#event-processing';

type Wake = () => void;

export interface UntilOptions {
  timeoutMs?: number;
  /** What the test waited for, as the timeout's message says it (with the state at that moment). */
  describe: () => string | Promise<string>;
}

/**
 * Waits on what the engine reports instead of polling: a condition is checked once, then again each
 * time the engine signals progress on a transaction it names (EngineEvents: notifications written,
 * steps finished), or a queue consumer of this process finishes an entry (BullMQ's worker events).
 */
export class EngineSignals {
  private readonly byTransaction = new Map<string, Set<Wake>>();
  private readonly onEntry = new Set<Wake>();
  private readonly finishedEntries: Job[] = [];
  private readonly stops: (() => void)[] = [];

  constructor(app: INestApplicationContext) {
    const events = app.get(EngineEvents);
    this.stops.push(
      events.notificationsWritten.listen(({ transactionId }) => this.wake([transactionId])),
      events.stepsFinished.listen(({ steps }) => this.wake(new Set(steps.map((step) => step.transactionId)))),
    );
    const consumers = app
      .get(DiscoveryService)
      .getProviders()
      .flatMap(({ instance }) => (instance instanceof QueueConsumer ? [instance] : []));
    for (const { worker } of consumers) {
      const finished = (job: Job | undefined) => {
        if (!job) return;
        this.finishedEntries.push(job);
        for (const wake of this.onEntry) wake();
      };
      worker.on('completed', finished);
      worker.on('failed', finished);
      this.stops.push(() => {
        worker.off('completed', finished);
        worker.off('failed', finished);
      });
    }
  }

  /** Resolves once `condition` holds, checking it on each signal of these transactions. */
  until(transactionIds: Iterable<string>, condition: () => Promise<boolean>, options: UntilOptions): Promise<void> {
    const ids = [...new Set(transactionIds)];
    return this.wait(condition, options, (check) => {
      for (const id of ids) {
        const wakes = this.byTransaction.get(id) ?? new Set<Wake>();
        this.byTransaction.set(id, wakes.add(check));
      }
      return () => {
        for (const id of ids) this.byTransaction.get(id)?.delete(check);
      };
    });
  }

  /**
   * Resolves once a queue consumer of this process has finished the entry (completed, or failed an
   * attempt), or any entry that `entry` matches.
   */
  processed(entry: Job | ((finished: Job) => boolean), timeoutMs = 15_000): Promise<void> {
    const matches =
      typeof entry === 'function'
        ? entry
        : (finished: Job) => finished.queueName === entry.queueName && finished.id === entry.id;
    const describe = () => (typeof entry === 'function' ? 'a matching queue entry' : `queue entry ${entry.id}`);
    return this.wait(
      () => this.finishedEntries.some(matches),
      { timeoutMs, describe },
      (check) => {
        this.onEntry.add(check);
        return () => this.onEntry.delete(check);
      },
    );
  }

  close(): void {
    for (const stop of this.stops) stop();
  }

  private wake(transactionIds: Iterable<string>): void {
    for (const id of transactionIds) for (const wake of this.byTransaction.get(id) ?? []) wake();
  }

  /** Checks now and on every wake-up; a wake-up during a check runs it again once it ends. */
  private wait(
    condition: () => boolean | Promise<boolean>,
    { timeoutMs = 15_000, describe }: UntilOptions,
    subscribe: (check: Wake) => () => void,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      let checking = false;
      let again = false;
      let ended = false;
      const end = (error?: unknown) => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        unsubscribe();
        if (error) reject(error instanceof Error ? error : new Error('the condition failed', { cause: error }));
        else resolve();
      };
      const check = () => {
        if (ended) return;
        if (checking) return void (again = true);
        checking = true;
        void (async () => {
          try {
            do {
              again = false;
              if (await condition()) return end();
            } while (again && !ended);
          } catch (error) {
            end(error);
          } finally {
            checking = false;
          }
        })();
      };
      const timer = setTimeout(() => {
        void Promise.resolve(describe()).then(
          (what) => end(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)),
          end,
        );
      }, timeoutMs);
      const unsubscribe = subscribe(check);
      check();
    });
  }
}
