export * from './layout-cache.js';
export * from './email-layouts.js';
export * from './email-layouts.module.js';
