export * from './subscription-condition.js';
export * from './subscription-preferences.js';
export * from './topic-member-filter.js';
