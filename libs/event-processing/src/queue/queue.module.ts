import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { WebhookDispatch } from '#application';
import { QUEUE_NAMES } from './job-catalogue.js';
import { JobQueue } from './job-queue.service.js';
import type { QueueBackend } from './queue-backend.js';
import { QueueWaits } from './queue-waits.js';
import { QueuedWebhookDispatch } from './queued-webhook-dispatch.js';

export const QUEUE_BACKEND = Symbol('QUEUE_BACKEND');

/**
 * Producers for every queue of the catalogue; consumers live in the worker's processors. Global
 * because BullMQ's connection is registered once per process from the backend chosen at boot (a
 * value, like the database connection), and both roles produce: the trigger routes, health and
 * metrics on the api, every step and the recovery sweeper on the worker.
 */
@Global()
@Module({})
export class QueueModule {
  static forRoot(backend: QueueBackend): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        BullModule.forRoot({ connection: backend.connection as never, prefix: backend.prefix }),
        ...Object.values(QUEUE_NAMES).map((name) => BullModule.registerQueue({ name })),
      ],
      providers: [
        JobQueue,
        QueueWaits,
        { provide: QUEUE_BACKEND, useValue: backend },
        QueuedWebhookDispatch,
        { provide: WebhookDispatch, useExisting: QueuedWebhookDispatch },
      ],
      exports: [JobQueue, QueueWaits, QUEUE_BACKEND, WebhookDispatch, QueuedWebhookDispatch],
    };
  }
}
