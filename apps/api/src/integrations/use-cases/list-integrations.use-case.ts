import { Injectable } from '@nestjs/common';
import { IntegrationRepository, type IntegrationRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';

@Injectable()
export class ListIntegrationsUseCase {
  constructor(private readonly integrations: IntegrationRepository) {}

  /** The key's environment, deleted ones left out. */
  async inEnvironment(auth: AuthContext): Promise<IntegrationRow[]> {
    return this.integrations.listByEnvironment(auth.environmentId);
  }

  /** Spec operation 5: active integrations of every environment of the organization. */
  async activeInOrganization(auth: AuthContext): Promise<IntegrationRow[]> {
    return this.integrations.listActiveInOrganization(auth.organizationId);
  }
}
