export * from './step-filters.js';
