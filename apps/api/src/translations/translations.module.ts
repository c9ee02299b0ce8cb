import { Module } from '@nestjs/common';
import { TemplatesModule, TranslationsCacheModule } from '#application';
import { DalModule, LayoutRepository, TranslationRepository, WorkflowRepository } from '#dal';
import { TranslationsController } from './translations.controller.js';
import { TranslationFilesUseCase } from './use-cases/translation-files.use-case.js';
import { TranslationWriter } from './use-cases/translation-writer.js';
import { TranslationsService } from './use-cases/translations.service.js';

@Module({
  imports: [
    TemplatesModule,
    TranslationsCacheModule,
    DalModule.forRepositories([TranslationRepository, WorkflowRepository, LayoutRepository]),
  ],
  controllers: [TranslationsController],
  providers: [TranslationWriter, TranslationsService, TranslationFilesUseCase],
})
export class TranslationsModule {}
