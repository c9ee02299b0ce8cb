import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiHeader,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DomainError } from '#common';
import { Auth, type AuthContext } from '../../auth/auth-context.js';
import { ApiErrorResponses, ErrorResponseDto } from '../../http/api-error-responses.js';
import { entityTag, ifMatchUpdatedAt } from '../../http/if-match.js';
import {
  CreateWorkflowV2Dto,
  PatchWorkflowV2Dto,
  SyncWorkflowV2Dto,
  UpdateWorkflowV2Dto,
} from './dto/workflow-v2-request.dto.js';
import { GeneratePreviewV2Dto } from './dto/workflow-v2-preview.dto.js';
import { GetWorkflowV2QueryDto, ListWorkflowsV2QueryDto } from './dto/workflow-v2-query.dto.js';
import {
  WorkflowV2ListDto,
  WorkflowV2PreviewDto,
  WorkflowV2ResponseDto,
  WorkflowV2StepResponseDto,
} from './dto/workflow-v2-response.dto.js';
import { PreviewStepUseCase } from './use-cases/preview-step.use-case.js';
import { SyncWorkflowUseCase } from './use-cases/sync-workflow.use-case.js';
import { WorkflowsV2Service } from './workflows-v2.service.js';
import { Access } from '../../auth/access-areas.js';

const WORKFLOW_PARAM = { name: 'workflowId', description: 'The workflowId (trigger identifier), internal id or slug' };
const ETAG_HEADER = {
  description: "The version's updatedAt in double quotes, for If-Match",
  schema: { type: 'string' },
} as const;
const STEP_PARAM = { name: 'stepId', description: 'The stepId, internal id or slug of the step' };

@ApiTags('Workflows')
@ApiErrorResponses()
@Access('content')
@Controller('v2/workflows')
export class WorkflowsV2Controller {
  constructor(
    private readonly workflows: WorkflowsV2Service,
    private readonly sync: SyncWorkflowUseCase,
    private readonly preview: PreviewStepUseCase,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a workflow (v2)' })
  @ApiCreatedResponse({ type: WorkflowV2ResponseDto })
  create(@Auth() auth: AuthContext, @Body() body: CreateWorkflowV2Dto): Promise<WorkflowV2ResponseDto> {
    return this.workflows.create(auth, body);
  }

  @Get()
  @ApiOperation({ summary: 'List workflows (v2)' })
  @ApiOkResponse({ type: WorkflowV2ListDto })
  list(@Auth() auth: AuthContext, @Query() query: ListWorkflowsV2QueryDto): Promise<WorkflowV2ListDto> {
    return this.workflows.list(auth, query);
  }

  @Get(':workflowId')
  @ApiOperation({ summary: 'Get a workflow (v2); any workflow, whichever API wrote it' })
  @ApiParam(WORKFLOW_PARAM)
  @ApiOkResponse({ type: WorkflowV2ResponseDto, headers: { ETag: ETAG_HEADER } })
  async get(
    @Auth() auth: AuthContext,
    @Param('workflowId') workflowId: string,
    @Query() query: GetWorkflowV2QueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowV2ResponseDto> {
    if (query.environmentId !== undefined && query.environmentId !== auth.environmentId)
      throw new DomainError('WORKFLOW_NOT_FOUND', `Workflow ${workflowId} not found`);
    const workflow = await this.workflows.get(auth, workflowId);
    reply.header('ETag', entityTag(workflow.updatedAt));
    return workflow;
  }

  @Put(':workflowId')
  @ApiOperation({
    summary: 'Replace a workflow (v2): fields left out get their defaults; with If-Match, only the version it names',
  })
  @ApiParam(WORKFLOW_PARAM)
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: "Not sent by Novu's clients: the ETag of the version read; a newer version is not overwritten (412)",
  })
  @ApiOkResponse({ type: WorkflowV2ResponseDto, headers: { ETag: ETAG_HEADER } })
  @ApiResponse({ status: 412, type: ErrorResponseDto, description: 'Saved by someone else after the If-Match version' })
  async update(
    @Auth() auth: AuthContext,
    @Param('workflowId') workflowId: string,
    @Body() body: UpdateWorkflowV2Dto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WorkflowV2ResponseDto> {
    const workflow = await this.workflows.update(auth, workflowId, body, ifMatchUpdatedAt(ifMatch));
    reply.header('ETag', entityTag(workflow.updatedAt));
    return workflow;
  }

  @Patch(':workflowId')
  @ApiOperation({ summary: 'Change some fields of a workflow (v2), e.g. active' })
  @ApiParam(WORKFLOW_PARAM)
  @ApiOkResponse({ type: WorkflowV2ResponseDto })
  patch(
    @Auth() auth: AuthContext,
    @Param('workflowId') workflowId: string,
    @Body() body: PatchWorkflowV2Dto,
  ): Promise<WorkflowV2ResponseDto> {
    return this.workflows.patch(auth, workflowId, body);
  }

  @Delete(':workflowId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a workflow (v2); its workflowId becomes free' })
  @ApiParam(WORKFLOW_PARAM)
  @ApiNoContentResponse()
  delete(@Auth() auth: AuthContext, @Param('workflowId') workflowId: string): Promise<void> {
    return this.workflows.delete(auth, workflowId);
  }

  @Put(':workflowId/sync')
  @ApiOperation({ summary: "Copy a workflow into another environment of the caller's organization" })
  @ApiParam(WORKFLOW_PARAM)
  @ApiOkResponse({ type: WorkflowV2ResponseDto, description: 'The workflow in the target environment' })
  syncTo(
    @Auth() auth: AuthContext,
    @Param('workflowId') workflowId: string,
    @Body() body: SyncWorkflowV2Dto,
  ): Promise<WorkflowV2ResponseDto> {
    return this.sync.execute(auth, workflowId, body.targetEnvironmentId);
  }

  @Get(':workflowId/steps/:stepId')
  @ApiOperation({ summary: 'Get one step of a workflow (v2)' })
  @ApiParam(WORKFLOW_PARAM)
  @ApiParam(STEP_PARAM)
  @ApiOkResponse({ type: WorkflowV2StepResponseDto })
  getStep(
    @Auth() auth: AuthContext,
    @Param('workflowId') workflowId: string,
    @Param('stepId') stepId: string,
  ): Promise<WorkflowV2StepResponseDto> {
    return this.workflows.getStep(auth, workflowId, stepId);
  }

  @Post(':workflowId/step/:stepId/preview')
  @ApiOperation({ summary: 'Render one step for a payload and subscriber; nothing is sent' })
  @ApiParam(WORKFLOW_PARAM)
  @ApiParam(STEP_PARAM)
  @ApiCreatedResponse({ type: WorkflowV2PreviewDto })
  generatePreview(
    @Auth() auth: AuthContext,
    @Param('workflowId') workflowId: string,
    @Param('stepId') stepId: string,
    @Body() body: GeneratePreviewV2Dto,
  ): Promise<WorkflowV2PreviewDto> {
    return this.preview.execute(auth, workflowId, stepId, body);
  }
}
