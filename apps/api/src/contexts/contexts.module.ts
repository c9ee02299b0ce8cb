import { Module } from '@nestjs/common';
import { ContextRepository, DalModule } from '#dal';
import { ContextsController } from './contexts.controller.js';
import { ContextsService } from './contexts.service.js';

@Module({
  imports: [DalModule.forRepositories([ContextRepository])],
  controllers: [ContextsController],
  providers: [ContextsService],
})
export class ContextsModule {}
