export * from './wait-time.js';
export * from './timed-digest.js';
