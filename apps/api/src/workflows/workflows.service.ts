import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { toWorkflowResponse, WorkflowCache, WorkflowWriter, type WorkflowResponse } from '#application';
import { WorkflowRepository, type WorkflowRow } from '#dal';
import type { AuthContext } from '../auth/auth-context.js';
import type { Page } from '../http/pagination.dto.js';
import type { CreateWorkflowDto, UpdateWorkflowDto, WorkflowListQueryDto } from './dto/workflow.dto.js';

/** Thin over WorkflowWriter (libs/application), which holds the rules shared with the WORKFLOWS_DIR loader. */
@Injectable()
export class WorkflowsService {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly writer: WorkflowWriter,
    private readonly cache: WorkflowCache,
  ) {}

  async create(auth: AuthContext, body: CreateWorkflowDto): Promise<WorkflowResponse> {
    const { row, group } = await this.writer.create(auth, auth.actorId, body);
    return toWorkflowResponse(row, group);
  }

  async get(auth: AuthContext, key: string): Promise<WorkflowResponse> {
    return this.present(auth, await this.find(auth, key));
  }

  async update(auth: AuthContext, key: string, body: UpdateWorkflowDto): Promise<WorkflowResponse> {
    const { row, group } = await this.writer.update(auth, await this.find(auth, key), body);
    this.cache.invalidate(auth.environmentId);
    return toWorkflowResponse(row, group);
  }

  async setStatus(auth: AuthContext, key: string, active: boolean): Promise<WorkflowResponse> {
    const row = await this.writer.setActive(auth.environmentId, await this.find(auth, key), active);
    this.cache.invalidate(auth.environmentId);
    return this.present(auth, row);
  }

  async delete(auth: AuthContext, key: string): Promise<WorkflowResponse> {
    const current = await this.find(auth, key);
    const row = await this.writer.delete(auth.environmentId, current, auth.actorId);
    this.cache.invalidate(auth.environmentId);
    if (!row) throw this.notFound(key);
    return this.present(auth, row);
  }

  async list(auth: AuthContext, query: WorkflowListQueryDto): Promise<Page<WorkflowResponse> & { totalCount: number }> {
    const { rows, total } = await this.workflows.list(auth.environmentId, query.page, query.limit, query.query);
    const groups = await this.writer.groupsOf(auth.environmentId, rows);
    return {
      data: rows.map((row) => toWorkflowResponse(row, groups.get(row.notificationGroupId))),
      page: query.page,
      pageSize: query.limit,
      hasMore: (query.page + 1) * query.limit < total,
      totalCount: total,
    };
  }

  private async find(auth: AuthContext, key: string): Promise<WorkflowRow> {
    const row = await this.workflows.findByIdOrIdentifier(auth.environmentId, key);
    if (!row) throw this.notFound(key);
    return row;
  }

  private async present(auth: AuthContext, row: WorkflowRow): Promise<WorkflowResponse> {
    const groups = await this.writer.groupsOf(auth.environmentId, [row]);
    return toWorkflowResponse(row, groups.get(row.notificationGroupId));
  }

  private notFound(key: string): DomainError {
    return new DomainError('WORKFLOW_NOT_FOUND', `Workflow ${key} not found`);
  }
}
