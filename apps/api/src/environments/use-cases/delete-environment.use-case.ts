import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { ApiKeyCache } from '#application';
import { EnvironmentRepository } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import { EnvironmentsService, isDefaultEnvironment } from '../environments.service.js';

/**
 * Removes an environment and its API keys (which stop working at once on every api process). Its other
 * rows stay in the database, reachable by no key: no request names an environment but through a key.
 */
@Injectable()
export class DeleteEnvironmentUseCase {
  constructor(
    private readonly environments: EnvironmentRepository,
    private readonly service: EnvironmentsService,
    private readonly keys: ApiKeyCache,
  ) {}

  async execute(auth: AuthContext, id: string): Promise<void> {
    const environment = await this.service.find(auth, id);
    if (environment.id === auth.environmentId)
      throw DomainError.validation('environmentId', 'The environment of the API key in use cannot be deleted', id);
    if (isDefaultEnvironment(environment))
      throw DomainError.validation(
        'environmentId',
        `${environment.name} is a default environment and cannot be deleted`,
        id,
      );
    if (!(await this.environments.deleteEnvironment(auth.organizationId, environment.id)))
      throw new DomainError('NOT_FOUND', `Environment ${id} not found`);
    this.keys.forgetEnvironment(environment.id);
  }
}
