import { Injectable } from '@nestjs/common';
import { generateApiKey, TenancyService } from '#application';
import { ApiKeyRepository } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import { EnvironmentsService } from '../environments.service.js';
import { ApiKeyDto, type CreatedApiKeyDto } from './api-key.dto.js';

/** A new key for an environment of the caller's organization, answered once. */
@Injectable()
export class CreateApiKeyUseCase {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly keys: ApiKeyRepository,
    private readonly tenancy: TenancyService,
  ) {}

  async execute(auth: AuthContext, environmentId: string): Promise<CreatedApiKeyDto> {
    const environment = await this.environments.find(auth, environmentId);
    const key = generateApiKey();
    const row = await this.keys.create(environment, this.tenancy.storedForm(key));
    return { ...ApiKeyDto.from(row), key };
  }
}
