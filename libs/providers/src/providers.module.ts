import { Module } from '@nestjs/common';
import { ProviderRegistry } from './provider-registry.js';

@Module({ providers: [ProviderRegistry], exports: [ProviderRegistry] })
export class ProvidersModule {}
