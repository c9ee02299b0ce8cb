export * from './schedule.js';
export * from './schedule-validation.js';
export { resolveTimeZone } from './zoned-time.js';
