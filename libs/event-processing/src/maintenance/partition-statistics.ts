import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '#common';
import { ActivityPartitionRepository } from '#dal';

const INTERVAL_MS = 5_000;

/**
 * Keeps the statistics of the activity partitions in step with their size. A connection keeps the plan
 * of a hot statement (they are prepared once per connection) until a table it reads is analyzed: a plan
 * made while this week's partition was nearly empty reads it whole, and would go on doing so for every
 * trigger as the week fills it. PostgreSQL's autovacuum analyzes a table once it grows, but it may be
 * off or late; this analyzes a partition each time it has doubled since its statistics were taken (a
 * few times a week each), which also makes every connection plan again. Cheap when nothing grew: one
 * catalog query. Several workers doing it at once analyze a partition once (the others skip it).
 */
@Injectable()
export class PartitionStatistics implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly partitions: ActivityPartitionRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.refresh()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'partition statistics refresh failed'))
        .finally(() => (this.running = undefined));
    }, INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Analyzes the partitions that grew; returns their names. */
  async refresh(): Promise<string[]> {
    const grown = await this.partitions.grownSinceAnalyzed();
    await this.partitions.analyze(grown);
    if (grown.length > 0) this.logger.info({ partitions: grown }, 'analyzed grown partitions');
    return grown;
  }
}
