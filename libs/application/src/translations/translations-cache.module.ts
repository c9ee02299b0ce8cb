import { Module } from '@nestjs/common';
import { DalModule, EnvironmentRepository, TranslationRepository } from '#dal';
import { TranslationCache } from './translation-cache.js';

/**
 * The process's one TranslationCache. A static module is built once, so the routes that invalidate
 * it and the worker share the same cache.
 */
@Module({
  imports: [DalModule.forRepositories([TranslationRepository, EnvironmentRepository])],
  providers: [TranslationCache],
  exports: [TranslationCache],
})
export class TranslationsCacheModule {}
