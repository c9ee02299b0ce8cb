import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER, type JobStatus } from '#common';

/** A fan-out chunk committed: its notifications and their step jobs exist, the first steps are queued. */
export interface NotificationsWritten {
  environmentId: string;
  eventId: string;
  transactionId: string;
  /** The chunk's recipients (a chunk written again after a retry inserts none of them twice). */
  recipients: number;
  /** The event's last chunk: the event is `done`, every notification of it exists. */
  eventDone: boolean;
}

/** One step job whose outcome was recorded. */
export interface FinishedStep {
  jobId: string;
  notificationId: string;
  transactionId: string;
  type: string;
  status: JobStatus;
}

/**
 * Step outcomes committed together, after the jobs they made due were queued. The later steps that
 * an outcome ended (stop on failure, a throttled or failed run, a digest merge) changed in the same
 * commit and are not listed.
 */
export interface StepsFinished {
  environmentId: string;
  steps: FinishedStep[];
}

type Listener<T> = (value: T) => void;

class EngineSignal<T> {
  private readonly listeners = new Set<Listener<T>>();

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
  ) {}

  /** Whether anyone listens: a producer builds nothing for a signal nobody observes. */
  get observed(): boolean {
    return this.listeners.size > 0;
  }

  /** Returns the function that stops listening. */
  listen(listener: Listener<T>): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  emit(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch (error) {
        this.logger.warn({ err: error, signal: this.name }, 'engine event listener failed');
      }
    }
  }
}

/**
 * The worker's progress as it happens in this process, for observers that react to it without
 * reading the database (logs, metrics, the engine tests' wait for a transaction to settle). Each
 * signal follows the commit of the rows it names. Listeners run on the worker's path, so they must
 * be quick; one that throws is logged and disturbs nothing else.
 */
@Injectable()
export class EngineEvents {
  readonly notificationsWritten: EngineSignal<NotificationsWritten>;
  readonly stepsFinished: EngineSignal<StepsFinished>;

  constructor(@Inject(LOGGER) logger: Logger) {
    this.notificationsWritten = new EngineSignal('notificationsWritten', logger);
    this.stepsFinished = new EngineSignal('stepsFinished', logger);
  }
}
