import { Module } from '@nestjs/common';
import { SystemProcessor } from './system.processor.js';

/** The queue consumers. Only the worker role (or ROLE=all) imports this module. */
@Module({
  providers: [SystemProcessor],
})
export class EventProcessingModule {}
