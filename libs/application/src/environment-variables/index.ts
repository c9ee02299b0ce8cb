export * from './variable-values.js';
export * from './environment-variable-cache.js';
export * from './environment-variables-cache.module.js';
