export * from './config/app-config.js';
export * from './config/config.module.js';
export * from './errors/domain-error.js';
export * from './enums.js';
export * from './clock.js';
export * from './ids.js';
export * from './logger.js';
export * from './metrics.js';
