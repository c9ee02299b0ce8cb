import { Module } from '@nestjs/common';
import { DalModule, TenantRepository } from '#dal';
import { TenantsController } from './tenants.controller.js';
import { TenantsService } from './tenants.service.js';

@Module({
  imports: [DalModule.forRepositories([TenantRepository])],
  controllers: [TenantsController],
  providers: [TenantsService],
})
export class TenantsModule {}
