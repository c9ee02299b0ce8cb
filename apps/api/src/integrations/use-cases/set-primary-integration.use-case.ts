import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { IntegrationRepository, type IntegrationRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';

/**
 * BEHAVIOR §4: the id is looked up in the key's organization; the switch happens in the target's own
 * environment and channel, in one transaction that locks the channel's rows.
 */
@Injectable()
export class SetPrimaryIntegrationUseCase {
  constructor(private readonly integrations: IntegrationRepository) {}

  async execute(auth: AuthContext, id: string): Promise<IntegrationRow> {
    const target = await this.integrations.findByIdInOrganization(auth.organizationId, id);
    const row = target && (await this.integrations.setPrimary(target.environmentId, id));
    if (!row) throw new DomainError('INTEGRATION_NOT_FOUND', `Integration with id ${id} not found`);
    return row;
  }
}
