export * from './webhook-event-types.js';
export * from './webhook-event.js';
export * from './webhook-outbox.js';
export * from './webhook-secret.js';
export * from './webhook-outbox.module.js';
export * from './message-events.js';
