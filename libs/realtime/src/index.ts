export * from './realtime-transport.js';
export * from './worker-realtime.module.js';
