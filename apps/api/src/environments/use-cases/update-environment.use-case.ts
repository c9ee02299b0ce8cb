import { Injectable } from '@nestjs/common';
import { TranslationCache } from '#application';
import { DomainError } from '#common';
import { EnvironmentRepository, isUniqueViolation, type Environment } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { UpdateEnvironmentDto } from '../dto/environment-input.dto.js';
import { EnvironmentsService, isDefaultEnvironment } from '../environments.service.js';

/**
 * Name, identifier, colour, parent, retention overrides, default locale and HMAC requirement of an
 * environment of the caller's organization. Inbox sessions read the requirement on every request, so
 * turning it on ends the unproven ones without anything to tell them here.
 */
@Injectable()
export class UpdateEnvironmentUseCase {
  constructor(
    private readonly environments: EnvironmentRepository,
    private readonly service: EnvironmentsService,
    private readonly translations: TranslationCache,
  ) {}

  async execute(auth: AuthContext, id: string, body: UpdateEnvironmentDto): Promise<Environment> {
    const current = await this.service.find(auth, id);
    if (body.name !== undefined && body.name !== current.name && isDefaultEnvironment(current))
      throw DomainError.validation('name', `${current.name} keeps its name`, body.name);
    if (body.parentId !== undefined) await this.service.parent(auth, body.parentId, current.id);
    const { name, identifier, color, parentId, retention, defaultLocale, requireHmac } = body;
    try {
      const row = await this.environments.updateEnvironment(auth.organizationId, current.id, {
        ...(name !== undefined ? { name } : {}),
        ...(identifier !== undefined ? { identifier } : {}),
        ...(color !== undefined ? { color } : {}),
        ...(parentId !== undefined ? { parentId } : {}),
        ...(defaultLocale !== undefined ? { defaultLocale } : {}),
        ...(requireHmac !== undefined ? { requireHmac } : {}),
        retentionActivityDays: retention?.activityDays,
        retentionMessagesDays: retention?.messagesDays,
      });
      if (!row) throw new DomainError('NOT_FOUND', `Environment ${id} not found`);
      // Rendering reads the default locale with the environment's translations.
      if (defaultLocale !== undefined) this.translations.invalidate(row.id);
      return row;
    } catch (error) {
      if (isUniqueViolation(error))
        throw new DomainError('CONFLICT', 'Another environment already has this name or identifier');
      throw error;
    }
  }
}
