import { Module } from '@nestjs/common';
import { DalModule, WorkflowRepository } from '#dal';
import { WorkflowCache } from './workflow-cache.js';

/**
 * The process's one WorkflowCache. A static module is instantiated once however many modules import
 * it, so under ROLE=all the trigger routes, the workflow routes (which invalidate it) and the worker
 * share the same instance.
 */
@Module({
  imports: [DalModule.forRepositories([WorkflowRepository])],
  providers: [WorkflowCache],
  exports: [WorkflowCache],
})
export class WorkflowCacheModule {}
