import { Module } from '@nestjs/common';
import { EmailLayoutsModule, EnvironmentVariablesCacheModule, TemplatesModule } from '#application';
import { DalModule, LayoutRepository } from '#dal';
import { LayoutsController } from './layouts.controller.js';
import { LayoutPreviewUseCase } from './use-cases/layout-preview.use-case.js';
import { LayoutsService } from './use-cases/layouts.service.js';

@Module({
  imports: [
    TemplatesModule,
    EmailLayoutsModule,
    EnvironmentVariablesCacheModule,
    DalModule.forRepositories([LayoutRepository]),
  ],
  controllers: [LayoutsController],
  providers: [LayoutsService, LayoutPreviewUseCase],
})
export class LayoutsModule {}
