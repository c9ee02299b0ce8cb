import { Module } from '@nestjs/common';
import { CryptoModule, EnvironmentVariablesCacheModule } from '#application';
import { DalModule, EnvironmentRepository, EnvironmentVariableRepository } from '#dal';
import { EnvironmentVariablesController } from './environment-variables.controller.js';
import { EnvironmentVariablesService } from './use-cases/environment-variables.service.js';

@Module({
  imports: [
    CryptoModule,
    EnvironmentVariablesCacheModule,
    DalModule.forRepositories([EnvironmentVariableRepository, EnvironmentRepository]),
  ],
  controllers: [EnvironmentVariablesController],
  providers: [EnvironmentVariablesService],
})
export class EnvironmentVariablesModule {}
