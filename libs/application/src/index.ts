export * from './tenancy/api-keys.js';
export * from './tenancy/tenancy.service.js';
export * from './crypto/credentials-cipher.js';
export * from './crypto/crypto.module.js';
export * from './filters/index.js';
export * from './integrations/integration-response.js';
