import { DynamicModule, Global, Module } from '@nestjs/common';
import type { DatabaseConnection } from './database.js';
import { DATABASE, PG_POOL } from './database.tokens.js';

/**
 * The process's one connection pool, under DATABASE (Drizzle) and PG_POOL (raw checks). Global
 * because it is a value opened at boot before Nest starts (migrations, the embedded server) and
 * every module's repositories are built on it. What a module may read or write is not global: it
 * lists its repositories with DalModule.forRepositories.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(connection: DatabaseConnection): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE, useValue: connection.db },
        { provide: PG_POOL, useValue: connection.pool },
      ],
      exports: [DATABASE, PG_POOL],
    };
  }
}
