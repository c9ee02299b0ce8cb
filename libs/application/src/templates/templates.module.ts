import { Module } from '@nestjs/common';
import { TemplateEngine } from './template-engine.js';

/** One engine (and one parse cache) per process, shared by the workflow routes and the step runner. */
@Module({ providers: [TemplateEngine], exports: [TemplateEngine] })
export class TemplatesModule {}
