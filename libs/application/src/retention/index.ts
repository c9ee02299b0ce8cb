export * from './retention-settings.js';
export * from './removed-rows.js';
export * from './retention-pass.js';
export * from './idempotency-key-expiry.js';
