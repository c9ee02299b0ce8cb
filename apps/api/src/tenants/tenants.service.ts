import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { TenantRepository, type TenantRow } from '#dal';
import type { AuthContext } from '../auth/auth-context.js';
import type { Page } from '../http/pagination.dto.js';
import type { CreateTenantDto, UpdateTenantDto } from './dto/tenant.dto.js';

/** Tenants are plain CRUD, so one service instead of a use case per operation. */
@Injectable()
export class TenantsService {
  constructor(private readonly tenants: TenantRepository) {}

  async create(auth: AuthContext, body: CreateTenantDto): Promise<TenantRow> {
    const row = await this.tenants.create(auth, {
      identifier: body.identifier,
      name: body.name,
      data: body.data ?? null,
    });
    if (!row) throw new DomainError('CONFLICT', `Tenant with identifier ${body.identifier} already exists`);
    return row;
  }

  async get(auth: AuthContext, identifier: string): Promise<TenantRow> {
    const row = await this.tenants.findByIdentifier(auth.environmentId, identifier);
    if (!row) throw new DomainError('TENANT_NOT_FOUND', `Tenant ${identifier} not found`);
    return row;
  }

  async update(auth: AuthContext, identifier: string, body: UpdateTenantDto): Promise<TenantRow> {
    if (body.identifier && body.identifier !== identifier) {
      if (await this.tenants.findByIdentifier(auth.environmentId, body.identifier)) {
        throw new DomainError('CONFLICT', `Tenant with identifier ${body.identifier} already exists`);
      }
    }
    const row = await this.tenants.update(auth.environmentId, identifier, body);
    if (!row) throw new DomainError('TENANT_NOT_FOUND', `Tenant ${identifier} not found`);
    return row;
  }

  async delete(auth: AuthContext, identifier: string): Promise<void> {
    if (!(await this.tenants.delete(auth.environmentId, identifier))) {
      throw new DomainError('TENANT_NOT_FOUND', `Tenant ${identifier} not found`);
    }
  }

  async list(auth: AuthContext, page: number, limit: number): Promise<Page<TenantRow> & { totalCount: number }> {
    const { rows, total } = await this.tenants.list(auth.environmentId, page, limit);
    return { data: rows, page, pageSize: limit, hasMore: (page + 1) * limit < total, totalCount: total };
  }
}
