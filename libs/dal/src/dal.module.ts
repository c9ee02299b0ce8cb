import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import type { DatabaseConnection } from './database/database.js';
import { DATABASE, PG_POOL } from './database/database.tokens.js';
import { ActivityFeedRepository } from './repositories/activity-feed.repository.js';
import { EnvironmentRepository } from './repositories/environment.repository.js';
import { PreferenceRepository } from './repositories/preference.repository.js';
import { IdempotencyRepository } from './repositories/idempotency.repository.js';
import { TenantRepository } from './repositories/tenant.repository.js';
import { SubscriberRepository } from './repositories/subscriber.repository.js';
import { TopicRepository } from './repositories/topic.repository.js';
import { MessageRepository } from './repositories/message.repository.js';
import { IntegrationRepository } from './repositories/integration.repository.js';
import { WorkflowRepository } from './repositories/workflow.repository.js';
import { TriggerEventRepository } from './repositories/trigger-event.repository.js';
import { NotificationRepository } from './repositories/notification.repository.js';
import { JobRepository } from './repositories/job.repository.js';
import { ExecutionDetailRepository } from './repositories/execution-detail.repository.js';

const REPOSITORIES: Provider[] = [
  EnvironmentRepository,
  PreferenceRepository,
  ActivityFeedRepository,
  IdempotencyRepository,
  TenantRepository,
  SubscriberRepository,
  TopicRepository,
  MessageRepository,
  IntegrationRepository,
  WorkflowRepository,
  TriggerEventRepository,
  NotificationRepository,
  JobRepository,
  ExecutionDetailRepository,
];

/**
 * The data-access layer: one connection, one repository per aggregate. Every repository method that
 * touches tenant data takes the environment id, so an unscoped query does not compile.
 */
@Global()
@Module({})
export class DalModule {
  static forRoot(connection: DatabaseConnection): DynamicModule {
    return {
      module: DalModule,
      providers: [
        { provide: DATABASE, useValue: connection.db },
        { provide: PG_POOL, useValue: connection.pool },
        ...REPOSITORIES,
      ],
      exports: [DATABASE, PG_POOL, ...REPOSITORIES],
    };
  }
}
