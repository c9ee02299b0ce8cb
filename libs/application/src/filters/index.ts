export * from './step-filters.js';
export * from './skip-condition.js';
