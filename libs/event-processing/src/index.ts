export * from './producer.js';
export * from './event-processing.module.js';
export * from './engine-events.js';
export * from './queue/queue-consumer.js';
export * from './recovery/recovery-sweeper.js';
export * from './maintenance/maintenance-run.js';
export * from './maintenance/partition-statistics.js';
export { FanOutService } from './fan-out/fan-out.service.js';
export { WebhookDeliveryProcessor } from './webhooks/webhook-delivery.processor.js';
