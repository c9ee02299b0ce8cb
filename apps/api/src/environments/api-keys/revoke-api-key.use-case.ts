import { Injectable } from '@nestjs/common';
import { DomainError, isId } from '#common';
import { ApiKeyCache } from '#application';
import { ApiKeyRepository } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import { EnvironmentsService } from '../environments.service.js';

/**
 * Deletes a key; the next request that sends it is refused. The last key of an environment may go
 * too (a dashboard admin, another environment's key or the CLI can make a new one): refusing it would
 * keep a leaked key alive.
 */
@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly keys: ApiKeyRepository,
    private readonly cache: ApiKeyCache,
  ) {}

  async execute(auth: AuthContext, environmentId: string, keyId: string): Promise<void> {
    const environment = await this.environments.find(auth, environmentId);
    if (!isId(keyId) || !(await this.keys.delete(environment.id, keyId)))
      throw new DomainError('NOT_FOUND', `API key ${keyId} not found`);
    // The cache holds raw keys by value, not by id: forgetting the environment's entries is what reaches
    // the revoked one, here and (through the cluster channel) on every other api process.
    this.cache.forgetEnvironment(environment.id);
  }
}
