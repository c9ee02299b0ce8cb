import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { CredentialsCipher } from '#application';
import { IntegrationRepository, isUniqueViolation, type IntegrationChanges, type IntegrationRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { UpdateIntegrationDto } from '../dto/integration.dto.js';
import { checkCredentialFormats } from './check-credential-formats.js';

function merged(stored: Record<string, unknown>, given: object): Record<string, unknown> {
  const result = { ...stored };
  for (const [name, value] of Object.entries(given)) {
    if (value === '') delete result[name];
    else if (value !== undefined) result[name] = value;
  }
  return result;
}

@Injectable()
export class UpdateIntegrationUseCase {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly cipher: CredentialsCipher,
  ) {}

  /**
   * `merge` is for a caller that cannot read the secrets (a dashboard session) and so cannot send them
   * again: the given credentials go over the stored ones, an empty string removes one.
   */
  async execute(
    auth: AuthContext,
    id: string,
    body: UpdateIntegrationDto,
    credentialsMode: 'replace' | 'merge' = 'replace',
  ): Promise<IntegrationRow> {
    const changes: IntegrationChanges = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.identifier !== undefined) changes.identifier = body.identifier;
    if (body.configurations !== undefined) changes.configurations = { ...body.configurations };
    if (body.active !== undefined) changes.active = body.active;
    if (body.conditions !== undefined) changes.conditions = body.conditions;
    if (Object.keys(changes).length === 0 && body.credentials === undefined)
      throw new DomainError('BAD_REQUEST', 'No properties to update');
    if (body.credentials !== undefined) {
      const current = await this.integrations.findById(auth.environmentId, id);
      if (!current) throw new DomainError('INTEGRATION_NOT_FOUND', `Integration with id ${id} not found`);
      const credentials =
        credentialsMode === 'merge'
          ? merged(this.cipher.decrypt(current.credentials), body.credentials)
          : { ...body.credentials };
      checkCredentialFormats(current.providerId, credentials);
      changes.credentials = this.cipher.encrypt(credentials);
    }
    try {
      const row = await this.integrations.update(auth.environmentId, id, changes);
      if (!row) throw new DomainError('INTEGRATION_NOT_FOUND', `Integration with id ${id} not found`);
      return row;
    } catch (error) {
      if (isUniqueViolation(error))
        throw new DomainError('CONFLICT', `Integration with identifier ${body.identifier} already exists`);
      throw error;
    }
  }
}
