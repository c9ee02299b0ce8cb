import { Inject, Injectable, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { RealtimePublisher } from '#application';
import { AppConfig, LOGGER } from '#common';
import { createRealtimeEmitter, type RealtimeEmitter } from './realtime-emitter.js';

/**
 * A worker has no socket server: RealtimePublisher reaches the api processes' sockets through an
 * emitter on the deployment's transport, closed once the publishes under way have gone out.
 */
@Injectable()
class WorkerRealtimeEmitter implements OnModuleInit, OnModuleDestroy {
  private emitter?: RealtimeEmitter;

  constructor(
    private readonly publisher: RealtimePublisher,
    private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.emitter = createRealtimeEmitter(this.config, this.logger);
    this.publisher.useBroadcaster(this.emitter?.broadcaster);
  }

  async onModuleDestroy(): Promise<void> {
    this.publisher.useBroadcaster(undefined);
    await this.publisher.settled();
    await this.emitter?.close();
  }
}

/** For ROLE=worker only: in an api process the socket server is RealtimePublisher's broadcaster. */
@Module({ providers: [WorkerRealtimeEmitter] })
export class WorkerRealtimeModule {}
