import { Injectable } from '@nestjs/common';
import { DomainError, isId } from '#common';
import { DEFAULT_ENVIRONMENTS } from '#application';
import { EnvironmentContentRepository, EnvironmentRepository, type Environment } from '#dal';
import type { AuthContext } from '../auth/auth-context.js';

/** Development and Production: the CLI, the boot and `type` find them by name, so they keep it and stay. */
export const isDefaultEnvironment = (environment: Environment) =>
  (DEFAULT_ENVIRONMENTS as readonly string[]).includes(environment.name);

@Injectable()
export class EnvironmentsService {
  constructor(
    private readonly environments: EnvironmentRepository,
    private readonly content: EnvironmentContentRepository,
  ) {}

  async current(auth: AuthContext): Promise<Environment> {
    const row = await this.environments.findEnvironmentById(auth.environmentId);
    // A key always belongs to an environment (foreign key); a missing one means the key is no longer valid.
    if (!row) throw new DomainError('UNAUTHORIZED', 'API Key not found');
    return row;
  }

  list(auth: AuthContext): Promise<Environment[]> {
    return this.environments.listOrganizationEnvironments(auth.organizationId);
  }

  /** An environment of the caller's organization; another organization's id is a 404 like an unknown one. */
  async find(auth: AuthContext, id: string): Promise<Environment> {
    const row = isId(id) ? await this.environments.findOrganizationEnvironment(auth.organizationId, id) : undefined;
    if (!row) throw new DomainError('NOT_FOUND', `Environment ${id} not found`);
    return row;
  }

  async tags(auth: AuthContext, id: string): Promise<string[]> {
    const environment = await this.find(auth, id);
    return this.content.workflowTags(environment.id);
  }

  /**
   * The parent an environment may take: one of the organization's, and not the environment itself
   * or one of its descendants (a cycle).
   */
  async parent(auth: AuthContext, parentId: string, childId?: string): Promise<Environment> {
    const all = await this.list(auth);
    const byId = new Map(all.map((environment) => [environment.id, environment]));
    const parent = byId.get(parentId);
    if (!parent)
      throw DomainError.validation('parentId', 'parentId must be an environment of this organization', parentId);
    const seen = new Set<string>();
    for (let at: Environment | undefined = parent; at && !seen.has(at.id); at = byId.get(at.parentId ?? '')) {
      if (at.id === childId)
        throw DomainError.validation(
          'parentId',
          'parentId must not be the environment or one of its children',
          parentId,
        );
      seen.add(at.id);
    }
    return parent;
  }
}
