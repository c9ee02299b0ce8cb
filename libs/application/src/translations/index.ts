export * from './translation-rules.js';
export * from './localize.js';
export * from './translation-cache.js';
export * from './translations-cache.module.js';
