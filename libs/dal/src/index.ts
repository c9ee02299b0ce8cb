export * from './schema/index.js';
export * from './database/database.js';
export * from './database/database.tokens.js';
export * from './database/embedded-postgres.js';
export * from './database/migrate.js';
export * from './dal.module.js';
export * from './repositories/environment.repository.js';
export * from './repositories/tenant.repository.js';
