import { Injectable } from '@nestjs/common';
import { ApiKeyRepository } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import { EnvironmentsService } from '../environments.service.js';
import { ApiKeyDto } from './api-key.dto.js';

/** The keys of an environment of the caller's organization, oldest first, as their prefixes. */
@Injectable()
export class ListApiKeysUseCase {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly keys: ApiKeyRepository,
  ) {}

  async execute(auth: AuthContext, environmentId: string): Promise<ApiKeyDto[]> {
    const environment = await this.environments.find(auth, environmentId);
    return (await this.keys.list(environment.id)).map((row) => ApiKeyDto.from(row));
  }
}
