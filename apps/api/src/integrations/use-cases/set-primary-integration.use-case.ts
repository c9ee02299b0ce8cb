import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { IntegrationRepository, type IntegrationRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';

/**
 * Operation 4: "primary for its channel in the current environment" — the id is looked up in the
 * key's environment (another environment's integration is a 404, like every other resource: issue 8
 * isolation), and the switch happens in one transaction that locks the channel's rows.
 */
@Injectable()
export class SetPrimaryIntegrationUseCase {
  constructor(private readonly integrations: IntegrationRepository) {}

  async execute(auth: AuthContext, id: string): Promise<IntegrationRow> {
    const row = await this.integrations.setPrimary(auth.environmentId, id);
    if (!row) throw new DomainError('INTEGRATION_NOT_FOUND', `Integration with id ${id} not found`);
    return row;
  }
}
