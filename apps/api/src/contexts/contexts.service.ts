import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { ContextRepository, type ContextRow } from '#dal';
import type { AuthContext } from '../auth/auth-context.js';
import { toCursorPage, type CursorPage } from '../http/cursor-page.js';
import type { CreateContextDto, ListContextsQueryDto } from './dto/context.dto.js';

/** /v2/contexts: the contexts of the caller's environment, keyed by type and id. */
@Injectable()
export class ContextsService {
  constructor(private readonly contexts: ContextRepository) {}

  async create(auth: AuthContext, body: CreateContextDto): Promise<ContextRow> {
    const row = await this.contexts.create(auth, { type: body.type, identifier: body.id, data: body.data ?? {} });
    if (!row) throw new DomainError('CONFLICT', `Context ${body.type}:${body.id} already exists`);
    return row;
  }

  async get(auth: AuthContext, type: string, id: string): Promise<ContextRow> {
    const row = await this.contexts.find(auth.environmentId, type, id);
    if (!row) throw contextNotFound(type, id);
    return row;
  }

  async replaceData(auth: AuthContext, type: string, id: string, data: Record<string, unknown>): Promise<ContextRow> {
    const row = await this.contexts.replaceData(auth.environmentId, type, id, data);
    if (!row) throw contextNotFound(type, id);
    return row;
  }

  async delete(auth: AuthContext, type: string, id: string): Promise<void> {
    if (!(await this.contexts.delete(auth.environmentId, type, id))) throw contextNotFound(type, id);
  }

  async list(auth: AuthContext, query: ListContextsQueryDto): Promise<CursorPage<ContextRow>> {
    const filter = { identifier: query.id, search: query.search };
    const [{ rows, hasMore }, count] = await Promise.all([
      this.contexts.list(auth.environmentId, filter, { ...query, ascending: query.orderDirection === 'ASC' }),
      this.contexts.count(auth.environmentId, filter),
    ]);
    return toCursorPage(rows, hasMore, query, count);
  }
}

function contextNotFound(type: string, id: string): DomainError {
  return new DomainError('NOT_FOUND', `Context ${type}:${id} not found`);
}
