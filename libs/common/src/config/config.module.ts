import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config.js';

/**
 * Makes the one parsed AppConfig injectable everywhere. Global because it is a value parsed before
 * Nest starts (an invalid setting stops the boot) and nearly every module reads a setting: listing
 * it in each module's imports would say nothing about the module.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }], exports: [AppConfig] };
  }
}
