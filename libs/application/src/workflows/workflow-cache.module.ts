import { Module } from '@nestjs/common';
import { WorkflowCache } from './workflow-cache.js';

/**
 * The process's one WorkflowCache. A static module is instantiated once however many modules import
 * it, so under ROLE=all the trigger routes, the workflow routes (which invalidate it) and the worker
 * share the same instance.
 */
@Module({ providers: [WorkflowCache], exports: [WorkflowCache] })
export class WorkflowCacheModule {}
