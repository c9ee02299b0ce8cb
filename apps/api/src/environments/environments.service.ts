import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { EnvironmentRepository, type Environment } from '#dal';
import type { AuthContext } from '../auth/auth-context.js';

@Injectable()
export class EnvironmentsService {
  constructor(private readonly environments: EnvironmentRepository) {}

  async current(auth: AuthContext): Promise<Environment> {
    const row = await this.environments.findEnvironmentById(auth.environmentId);
    // A key always belongs to an environment (foreign key); a missing one means the key is no longer valid.
    if (!row) throw new DomainError('UNAUTHORIZED', 'API Key not found');
    return row;
  }
}
