import { Injectable } from '@nestjs/common';
import { AppConfig, DomainError } from '#common';
import { TenancyService } from '#application';
import { EnvironmentRepository } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import { EnvironmentResponseDto } from '../dto/environment.dto.js';
import type { CreateEnvironmentDto } from '../dto/environment-input.dto.js';
import { EnvironmentsService } from '../environments.service.js';

/** Each environment holds its own keys, caches and variable values in every process: a tenant's count is bounded. */
const MAX_ENVIRONMENTS_PER_ORGANIZATION = 20;

/**
 * A new environment of the caller's organization with its own API key (answered once) and, since
 * every row is scoped by environment, its own empty data space. Its parent defaults to Production.
 */
@Injectable()
export class CreateEnvironmentUseCase {
  constructor(
    private readonly environments: EnvironmentRepository,
    private readonly service: EnvironmentsService,
    private readonly tenancy: TenancyService,
    private readonly config: AppConfig,
  ) {}

  async execute(auth: AuthContext, body: CreateEnvironmentDto): Promise<EnvironmentResponseDto> {
    if (
      (await this.environments.listOrganizationEnvironments(auth.organizationId)).length >=
      MAX_ENVIRONMENTS_PER_ORGANIZATION
    )
      throw DomainError.validation(
        'name',
        `An organization holds at most ${MAX_ENVIRONMENTS_PER_ORGANIZATION} environments: delete one first`,
      );
    const parent =
      body.parentId !== undefined
        ? await this.service.parent(auth, body.parentId)
        : await this.environments.findEnvironmentByName('Production', auth.organizationId);
    const created = await this.tenancy.createEnvironment(auth.organizationId, {
      name: body.name,
      color: body.color,
      parentId: parent?.id,
    });
    if (!created) throw new DomainError('CONFLICT', `Environment ${body.name} already exists`);
    return {
      ...EnvironmentResponseDto.from(created.environment, this.config.retention),
      apiKeys: [{ key: created.key, _userId: auth.actorId }],
    };
  }
}
