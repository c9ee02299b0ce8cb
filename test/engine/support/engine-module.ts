import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Clock, ConfigModule, LOGGER } from '#common';
import { CryptoModule, RealtimeModule, TenancyService } from '#application';
import { DalModule, DatabaseModule, EnvironmentRepository } from '#dal';
import { EventProcessingModule } from '#event-processing';
import { QueueModule } from '#event-processing/producer';
import type { Runtime } from '#api/runtime.js';
import { EventsModule } from '#api/events/events.module.js';
import { IntegrationsModule } from '#api/integrations/integrations.module.js';
import { NotificationsModule } from '#api/notifications/notifications.module.js';
import { PreferencesModule } from '#api/preferences/preferences.module.js';
import { SubscriberNotificationsModule } from '#api/subscriber-notifications/subscriber-notifications.module.js';
import { SubscribersModule } from '#api/subscribers/subscribers.module.js';
import { WorkflowsModule } from '#api/workflows/workflows.module.js';

/**
 * What an engine test boots: the database, the queue and the consumers (EventProcessingModule), and
 * the api's feature modules whose use cases a test triggers or seeds with (their controllers are
 * never served: an application context has no HTTP server). No guards, sockets or HTTP hooks.
 */
@Module({})
export class EngineTestModule {
  static register(runtime: Runtime, clock: Clock): DynamicModule {
    return {
      module: EngineTestModule,
      global: true,
      imports: [
        ConfigModule.forRoot(runtime.config),
        DatabaseModule.forRoot(runtime.database),
        QueueModule.forRoot(runtime.queueBackend),
        DiscoveryModule,
        RealtimeModule,
        CryptoModule,
        DalModule.forRepositories([EnvironmentRepository]),
        EventProcessingModule,
        EventsModule,
        WorkflowsModule,
        SubscribersModule,
        PreferencesModule,
        IntegrationsModule,
        NotificationsModule,
        SubscriberNotificationsModule,
      ],
      providers: [{ provide: Clock, useValue: clock }, { provide: LOGGER, useValue: runtime.logger }, TenancyService],
      exports: [Clock, LOGGER],
    };
  }
}
