import { Injectable, type Provider } from '@nestjs/common';
import { Clock } from '#common';
import { SnoozeWakeUps } from '#application';
import { JobQueue } from '#event-processing/producer';

/** The end of a snooze as a delayed queue job; the job carries the snooze it ends, so a later change makes it a no-op. */
@Injectable()
class QueuedSnoozeWakeUps extends SnoozeWakeUps {
  constructor(
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {
    super();
  }

  async schedule(environmentId: string, messageId: string, until: Date): Promise<void> {
    await this.queue.add(
      'wake-snoozed-message',
      { environmentId, messageId, until: until.toISOString() },
      { delay: Math.max(0, until.getTime() - this.clock.now().getTime()) },
    );
  }
}

/** For every module that snoozes notifications (the v2 routes and the inbox). */
export const snoozeWakeUpsProvider: Provider = { provide: SnoozeWakeUps, useClass: QueuedSnoozeWakeUps };
