import { Injectable } from '@nestjs/common';
import { Clock, DomainError } from '#common';
import { IntegrationRepository, type IntegrationRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';

/** Soft delete; when the primary goes, the next active integration of the channel takes over. */
@Injectable()
export class DeleteIntegrationUseCase {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly clock: Clock,
  ) {}

  async execute(auth: AuthContext, id: string): Promise<IntegrationRow> {
    const row = await this.integrations.softDelete(auth.environmentId, id, auth.actorId, this.clock.now());
    if (!row) throw new DomainError('INTEGRATION_NOT_FOUND', `Integration with id ${id} not found`);
    return row;
  }
}
