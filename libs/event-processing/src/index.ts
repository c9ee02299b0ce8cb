export * from './queue/job-catalogue.js';
export * from './queue/job-queue.service.js';
export * from './queue/queue-backend.js';
export * from './queue/queue.module.js';
export * from './event-processing.module.js';
export * from './queue/queue-consumer.js';
export * from './trigger/recipients.js';
export * from './recovery/recovery-sweeper.js';
