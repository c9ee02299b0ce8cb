export * from './slugify.js';
export * from './trigger-variables.js';
export * from './workflow-response.js';
export * from './workflow-input.js';
export * from './workflow-writer.js';
export * from './workflow-cache.js';
export * from './workflow-cache.module.js';
