import { Module } from '@nestjs/common';
import { DalModule, EnvironmentRepository } from '#dal';
import { EnvironmentsController } from './environments.controller.js';
import { EnvironmentsService } from './environments.service.js';

@Module({
  imports: [DalModule.forRepositories([EnvironmentRepository])],
  controllers: [EnvironmentsController],
  providers: [EnvironmentsService],
})
export class EnvironmentsModule {}
