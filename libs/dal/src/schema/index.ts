export * from './organizations.js';
export * from './subscribers.js';
export * from './integrations.js';
export * from './workflows.js';
export * from './topics.js';
export * from './preferences.js';
export * from './events.js';
export * from './messages.js';
