import { DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { Clock, ConfigModule, LOGGER, SystemClock } from '#common';
import { RealtimeModule } from '#application';
import { DatabaseModule } from '#dal';
import { QueueModule } from '#event-processing/producer';
import { WorkerRealtimeModule } from '#realtime';
// The composition root is the one api file that may mount the consumers (ROLE=worker or all).
import { EventProcessingModule } from '#event-processing';
import { AuthModule } from './auth/auth.module.js';
import { EventsModule } from './events/events.module.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { IdempotencyModule } from './http/idempotency/idempotency.module.js';
import { RateLimitModule } from './http/rate-limit/rate-limit.module.js';
import { IntegrationsModule } from './integrations/integrations.module.js';
import { WorkflowsModule } from './workflows/workflows.module.js';
import type { Runtime } from './runtime.js';
import { SubscribersModule } from './subscribers/subscribers.module.js';
import { TopicsModule } from './topics/topics.module.js';
import { TopicSubscriptionModule } from './topics/topic-subscription.module.js';
import { MessagesModule } from './messages/messages.module.js';
import { SubscriberNotificationsModule } from './subscriber-notifications/subscriber-notifications.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { PreferencesModule } from './preferences/preferences.module.js';
import { TenantsModule } from './tenants/tenants.module.js';
import { ContextsModule } from './contexts/contexts.module.js';
import { EnvironmentsModule } from './environments/environments.module.js';
import { TestRoutesModule } from './test-routes/test-routes.module.js';
import { InboxModule } from './inbox/inbox.module.js';
import { InboxSocketModule } from './realtime/inbox-socket.module.js';
import { InboxDemoModule } from './inbox-demo/inbox-demo.module.js';
import { LayoutsModule } from './layouts/layouts.module.js';
import { TranslationsModule } from './translations/translations.module.js';
import { EnvironmentVariablesModule } from './environment-variables/environment-variables.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { DashboardAccountsModule } from './dashboard-accounts/dashboard-accounts.module.js';

/**
 * HTTP feature modules, registered only for the api role. Global guards run in the order of their
 * modules here: API key or dashboard session, then rate limit, then the Idempotency-Key claim.
 */
const API_MODULES: NonNullable<ModuleMetadata['imports']> = [
  AuthModule,
  NotificationsModule,
  TenantsModule,
  ContextsModule,
  EnvironmentsModule,
  EventsModule,
  IntegrationsModule,
  WorkflowsModule,
  SubscribersModule,
  PreferencesModule,
  TopicsModule,
  TopicSubscriptionModule,
  MessagesModule,
  SubscriberNotificationsModule,
  RateLimitModule,
  IdempotencyModule,
  InboxModule,
  InboxSocketModule,
  InboxDemoModule,
  LayoutsModule,
  TranslationsModule,
  EnvironmentVariablesModule,
  WebhooksModule,
  DashboardAccountsModule,
];

/**
 * One composition root: ROLE picks the api modules, the queue consumers, or both. Global only for
 * Clock (a test clock replaces it) and LOGGER, values made here that every module may use.
 */
@Module({})
export class AppModule {
  static register(runtime: Runtime, options: { clock?: Clock } = {}): DynamicModule {
    const { config } = runtime;
    const imports: NonNullable<ModuleMetadata['imports']> = [
      ConfigModule.forRoot(config),
      DatabaseModule.forRoot(runtime.database),
      QueueModule.forRoot(runtime.queueBackend),
      HealthModule,
      MetricsModule,
      RealtimeModule,
    ];
    if (config.role !== 'worker') imports.push(...API_MODULES);
    if (config.role !== 'worker' && config.enableTestRoutes) imports.push(TestRoutesModule);
    if (config.role !== 'api') imports.push(EventProcessingModule);
    // A worker reaches the api processes' sockets through an emitter; an api process has its socket server.
    if (config.role === 'worker') imports.push(WorkerRealtimeModule);
    return {
      module: AppModule,
      global: true,
      imports,
      providers: [
        { provide: Clock, useValue: options.clock ?? new SystemClock() },
        { provide: LOGGER, useValue: runtime.logger },
      ],
      exports: [Clock, LOGGER],
    };
  }
}
