import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import {
  CreateWorkflowDto,
  UpdateWorkflowDto,
  UpdateWorkflowStatusDto,
  WorkflowListQueryDto,
  WorkflowPageDto,
  WorkflowResponseDto,
} from './dto/workflow.dto.js';
import { WorkflowsService } from './workflows.service.js';
import { Access } from '../auth/access-areas.js';

const WORKFLOW_PARAM = { name: 'workflowId', description: 'Internal id, trigger identifier, or slug of the name' };

@ApiTags('Workflows')
@ApiErrorResponses()
@Access('content')
@Controller('v1/workflows')
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Post()
  @ApiOperation({ summary: 'Create a workflow' })
  @ApiCreatedResponse({ type: WorkflowResponseDto })
  async create(@Auth() auth: AuthContext, @Body() body: CreateWorkflowDto): Promise<WorkflowResponseDto> {
    return this.workflows.create(auth, body);
  }

  @Get()
  @ApiOperation({ summary: 'List workflows, newest first' })
  @ApiOkResponse({ type: WorkflowPageDto })
  async list(@Auth() auth: AuthContext, @Query() query: WorkflowListQueryDto): Promise<WorkflowPageDto> {
    return this.workflows.list(auth, query);
  }

  @Get(':workflowId')
  @ApiOperation({ summary: 'Get a workflow' })
  @ApiParam(WORKFLOW_PARAM)
  @ApiOkResponse({ type: WorkflowResponseDto })
  async get(@Auth() auth: AuthContext, @Param('workflowId') workflowId: string): Promise<WorkflowResponseDto> {
    return this.workflows.get(auth, workflowId);
  }

  @Put(':workflowId')
  @ApiOperation({ summary: 'Update a workflow (partial; steps, when sent, replace the list)' })
  @ApiParam(WORKFLOW_PARAM)
  @ApiOkResponse({ type: WorkflowResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('workflowId') workflowId: string,
    @Body() body: UpdateWorkflowDto,
  ): Promise<WorkflowResponseDto> {
    return this.workflows.update(auth, workflowId, body);
  }

  @Put(':workflowId/status')
  @ApiOperation({ summary: 'Activate or deactivate a workflow' })
  @ApiParam(WORKFLOW_PARAM)
  @ApiOkResponse({ type: WorkflowResponseDto })
  async setStatus(
    @Auth() auth: AuthContext,
    @Param('workflowId') workflowId: string,
    @Body() body: UpdateWorkflowStatusDto,
  ): Promise<WorkflowResponseDto> {
    return this.workflows.setStatus(auth, workflowId, body.active);
  }

  @Delete(':workflowId')
  @ApiOperation({ summary: 'Delete a workflow (soft); its trigger identifier becomes free' })
  @ApiParam(WORKFLOW_PARAM)
  @ApiOkResponse({ type: WorkflowResponseDto, description: 'The deleted workflow' })
  async delete(@Auth() auth: AuthContext, @Param('workflowId') workflowId: string): Promise<WorkflowResponseDto> {
    return this.workflows.delete(auth, workflowId);
  }
}
