import { Module } from '@nestjs/common';
import { DalModule, EnvironmentVariableRepository } from '#dal';
import { CryptoModule } from '../crypto/crypto.module.js';
import { EnvironmentVariableCache } from './environment-variable-cache.js';

/**
 * The process's one EnvironmentVariableCache. A static module is built once, so the variable routes
 * (which invalidate it) and the worker share the same cache.
 */
@Module({
  imports: [CryptoModule, DalModule.forRepositories([EnvironmentVariableRepository])],
  providers: [EnvironmentVariableCache],
  exports: [EnvironmentVariableCache],
})
export class EnvironmentVariablesCacheModule {}
