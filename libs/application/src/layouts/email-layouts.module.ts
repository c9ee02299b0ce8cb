import { Module } from '@nestjs/common';
import { DalModule, LayoutRepository } from '#dal';
import { TemplatesModule } from '../templates/templates.module.js';
import { TranslationsCacheModule } from '../translations/translations-cache.module.js';
import { EmailLayouts } from './email-layouts.js';
import { LayoutCache } from './layout-cache.js';

/**
 * The process's one LayoutCache and the email layout renderer. A static module is built once, so
 * the layout routes (which invalidate the cache) and the worker share the same cache.
 */
@Module({
  imports: [TemplatesModule, TranslationsCacheModule, DalModule.forRepositories([LayoutRepository])],
  providers: [LayoutCache, EmailLayouts],
  exports: [LayoutCache, EmailLayouts],
})
export class EmailLayoutsModule {}
