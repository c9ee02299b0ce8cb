export * from './retention-settings.js';
export * from './maintenance-tally.js';
export * from './retention-pass.js';
export * from './idempotency-key-expiry.js';
