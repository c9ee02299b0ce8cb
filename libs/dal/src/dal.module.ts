import { DynamicModule, Module } from '@nestjs/common';
import type { ActivityPartitionRepository } from './repositories/activity-partitions.repository.js';
import type { ActivityFeedRepository } from './repositories/activity-feed.repository.js';
import type { ApiKeyRepository } from './repositories/api-key.repository.js';
import type { ApiProcessRepository } from './repositories/api-process.repository.js';
import type { DashboardSessionRepository } from './repositories/dashboard-session.repository.js';
import type { DashboardUserRepository } from './repositories/dashboard-user.repository.js';
import type { EnvironmentContentRepository } from './repositories/environment-content.repository.js';
import type { ContextRepository } from './repositories/context.repository.js';
import type { EnvironmentRepository } from './repositories/environment.repository.js';
import type { EnvironmentVariableRepository } from './repositories/environment-variable.repository.js';
import type { ExecutionDetailRepository } from './repositories/execution-detail.repository.js';
import type { IdempotencyRepository } from './repositories/idempotency.repository.js';
import type { InboxSessionRepository } from './repositories/inbox-session.repository.js';
import type { InboxMessageRepository } from './repositories/inbox-message.repository.js';
import type { IntegrationRepository } from './repositories/integration.repository.js';
import type { JobRepository } from './repositories/job.repository.js';
import type { LayoutRepository } from './repositories/layout.repository.js';
import type { MaintenanceStatusRepository } from './repositories/maintenance-status.repository.js';
import type { MessageRepository } from './repositories/message.repository.js';
import type { NotificationRepository } from './repositories/notification.repository.js';
import type { PreferenceRepository } from './repositories/preference.repository.js';
import type { RetentionRepository } from './repositories/retention.repository.js';
import type { SubscriberRepository } from './repositories/subscriber.repository.js';
import type { SubscriberPresenceRepository } from './repositories/subscriber-presence.repository.js';
import type { TenantRepository } from './repositories/tenant.repository.js';
import type { TopicRepository } from './repositories/topic.repository.js';
import type { TranslationRepository } from './repositories/translation.repository.js';
import type { TriggerEventRepository } from './repositories/trigger-event.repository.js';
import type { WorkflowRepository } from './repositories/workflow.repository.js';
import type { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository.js';
import type { WebhookEndpointRepository } from './repositories/webhook-endpoint.repository.js';

/** The repository classes, one per aggregate; every method touching tenant data takes the environment id. */
export type RepositoryClass =
  | typeof ActivityFeedRepository
  | typeof ActivityPartitionRepository
  | typeof ApiKeyRepository
  | typeof ApiProcessRepository
  | typeof DashboardSessionRepository
  | typeof DashboardUserRepository
  | typeof EnvironmentContentRepository
  | typeof ContextRepository
  | typeof EnvironmentRepository
  | typeof EnvironmentVariableRepository
  | typeof ExecutionDetailRepository
  | typeof IdempotencyRepository
  | typeof InboxMessageRepository
  | typeof InboxSessionRepository
  | typeof IntegrationRepository
  | typeof JobRepository
  | typeof LayoutRepository
  | typeof MaintenanceStatusRepository
  | typeof MessageRepository
  | typeof NotificationRepository
  | typeof PreferenceRepository
  | typeof RetentionRepository
  | typeof SubscriberRepository
  | typeof SubscriberPresenceRepository
  | typeof TenantRepository
  | typeof TopicRepository
  | typeof TranslationRepository
  | typeof TriggerEventRepository
  | typeof WebhookDeliveryRepository
  | typeof WebhookEndpointRepository
  | typeof WorkflowRepository;

/**
 * The repositories one Nest module uses, and only those, so a module's imports say which tables it
 * touches: `imports: [DalModule.forRepositories([SubscriberRepository])]`. A repository holds
 * nothing but the shared connection (DatabaseModule), so one listed by two modules is two cheap
 * instances over the same pool.
 */
@Module({})
export class DalModule {
  static forRepositories(repositories: RepositoryClass[]): DynamicModule {
    return { module: DalModule, providers: repositories, exports: repositories };
  }
}
