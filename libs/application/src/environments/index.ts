export * from './environment-diff.js';
export * from './environment-sync.service.js';
export type { PublishOutcome, PublishRequest, PublishStatus, ResourceSelector } from './publish-plan.js';
