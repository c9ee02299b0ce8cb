import { Module } from '@nestjs/common';
import { ApiKeyCache } from './api-key-cache.js';

/**
 * The process's one ApiKeyCache: a static module is instantiated once however many modules import
 * it, so the API-key guard and the environment delete (which forgets the keys) share it.
 */
@Module({ providers: [ApiKeyCache], exports: [ApiKeyCache] })
export class ApiKeyCacheModule {}
