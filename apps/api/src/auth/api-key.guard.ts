import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '#common';
import { EnvironmentRepository, type ApiKeyOwner } from '#dal';
import { ApiKeyCache, hashApiKey } from '#application';
import { IS_PUBLIC } from './auth-context.js';

/** `Authorization: ApiKey <key>` on every route not marked @Public(). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly environments: EnvironmentRepository,
    private readonly cache: ApiKeyCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    if (!header) throw new DomainError('UNAUTHORIZED', 'Missing authorization header');
    const [scheme, key] = header.split(' ');
    if (scheme !== 'ApiKey' || !key) throw new DomainError('UNAUTHORIZED', 'Invalid authentication scheme');
    const owner = await this.lookup(key.trim());
    if (!owner) throw new DomainError('UNAUTHORIZED', 'API Key not found');
    request.auth = owner;
    return true;
  }

  private async lookup(key: string): Promise<ApiKeyOwner | undefined> {
    const cached = this.cache.get(key);
    if (cached) return cached;
    const owner = await this.environments.findOwnerOfKeyHash(hashApiKey(key));
    if (owner) this.cache.set(key, owner);
    return owner;
  }
}
