export * from './tenancy/api-keys.js';
export * from './tenancy/tenancy.service.js';
