import { Injectable } from '@nestjs/common';
import {
  stepIdOf,
  toStepV2Response,
  toWorkflowV2ListItem,
  toWorkflowV2Response,
  WorkflowCache,
  WorkflowWriter,
  type StepV2Response,
  type WorkflowV2Response,
} from '#application';
import { DomainError, isId } from '#common';
import { WorkflowRepository, type StoredStep, type WorkflowRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { CreateWorkflowV2Dto, PatchWorkflowV2Dto, UpdateWorkflowV2Dto } from './dto/workflow-v2-request.dto.js';
import type { ListWorkflowsV2QueryDto } from './dto/workflow-v2-query.dto.js';
import type { WorkflowV2ListDto } from './dto/workflow-v2-response.dto.js';
import { WorkflowV2Input } from './use-cases/workflow-v2-input.js';

/** Novu's slugs end with the internal id: `welcome_wf_<id>`, `in-app_st_<id>`. */
const idInSlug = (key: string, marker: '_wf_' | '_st_') => {
  const at = key.lastIndexOf(marker);
  return at >= 0 ? key.slice(at + marker.length) : undefined;
};

/**
 * /v2/workflows over the one workflow store: writes go through WorkflowWriter (the rules of
 * /v1/workflows), reads map any stored workflow, whichever door wrote it, to the v2 shape.
 */
@Injectable()
export class WorkflowsV2Service {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly writer: WorkflowWriter,
    private readonly input: WorkflowV2Input,
    private readonly cache: WorkflowCache,
  ) {}

  async create(auth: AuthContext, body: CreateWorkflowV2Dto): Promise<WorkflowV2Response> {
    const { row } = await this.writer.create(auth, auth.actorId, this.input.fromCreate(body));
    return toWorkflowV2Response(row);
  }

  async get(auth: AuthContext, key: string): Promise<WorkflowV2Response> {
    return toWorkflowV2Response(await this.find(auth.environmentId, key));
  }

  async list(auth: AuthContext, query: ListWorkflowsV2QueryDto): Promise<WorkflowV2ListDto> {
    const { rows, total } = await this.workflows.search(auth.environmentId, {
      offset: query.offset,
      limit: query.limit,
      query: query.query,
      tags: query.tags,
      statuses: query.status,
      // Triggers are not tracked per workflow: the newest created stands in for the last triggered.
      orderBy: query.orderBy === 'lastTriggeredAt' ? 'createdAt' : query.orderBy,
      orderDirection: query.orderDirection,
    });
    return { workflows: rows.map(toWorkflowV2ListItem), totalCount: total };
  }

  /** `expectedUpdatedAt` (If-Match): the save applies only to that version of the workflow. */
  async update(
    auth: AuthContext,
    key: string,
    body: UpdateWorkflowV2Dto,
    expectedUpdatedAt?: Date,
  ): Promise<WorkflowV2Response> {
    const current = await this.find(auth.environmentId, key);
    const { row } = await this.writer.update(auth, current, this.input.fromUpdate(body, current), expectedUpdatedAt);
    this.cache.invalidate(auth.environmentId);
    return toWorkflowV2Response(row);
  }

  async patch(auth: AuthContext, key: string, body: PatchWorkflowV2Dto): Promise<WorkflowV2Response> {
    const current = await this.find(auth.environmentId, key);
    const { active, ...fields } = body;
    // As /v1/workflows/{id}/status: activating publishes, deactivating makes a draft again.
    const status = active === undefined ? {} : { active, draft: !active };
    const { row } = await this.writer.update(auth, current, { ...fields, ...status, origin: 'novu-cloud' });
    this.cache.invalidate(auth.environmentId);
    return toWorkflowV2Response(row);
  }

  async delete(auth: AuthContext, key: string): Promise<void> {
    const current = await this.find(auth.environmentId, key);
    await this.writer.delete(auth.environmentId, current, auth.actorId);
    this.cache.invalidate(auth.environmentId);
  }

  async getStep(auth: AuthContext, key: string, stepKey: string): Promise<StepV2Response> {
    const row = await this.find(auth.environmentId, key);
    return toStepV2Response(row, this.findStep(row, stepKey));
  }

  /** By internal id, workflowId (trigger identifier), Novu slug (`…_wf_<id>`) or the slug of the name. */
  async find(environmentId: string, key: string): Promise<WorkflowRow> {
    const slugId = idInSlug(key, '_wf_');
    const row =
      slugId && isId(slugId)
        ? await this.workflows.findById(environmentId, slugId)
        : await this.workflows.findByIdOrIdentifier(environmentId, key);
    if (!row) throw new DomainError('WORKFLOW_NOT_FOUND', `Workflow ${key} not found`);
    return row;
  }

  /** By stepId, internal id or Novu slug (`…_st_<id>`). */
  findStep(row: WorkflowRow, key: string): StoredStep {
    const slugId = idInSlug(key, '_st_');
    const step = row.steps.find((each) => stepIdOf(each) === key || each._id === key || each._id === slugId);
    if (!step) throw new DomainError('NOT_FOUND', `Step ${key} not found in workflow ${row.identifier}`);
    return step;
  }
}
