export * from './environment-diff.js';
export * from './environment-sync.service.js';
