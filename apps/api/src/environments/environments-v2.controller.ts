import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnvironmentSyncService } from '#application';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { EnvironmentTagDto } from './dto/environment.dto.js';
import {
  DiffEnvironmentDto,
  DiffEnvironmentResponseDto,
  PublishEnvironmentDto,
  PublishEnvironmentResponseDto,
} from './dto/environment-sync.dto.js';
import { toDiffResponse, toPublishResponse, toSelectors } from './dto/environment-sync.mapper.js';
import { EnvironmentsService } from './environments.service.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Environments')
@ApiErrorResponses()
@Access('content')
@Controller('v2/environments')
export class EnvironmentsV2Controller {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly sync: EnvironmentSyncService,
  ) {}

  @Get(':environmentId/tags')
  @ApiOperation({ summary: "The distinct tags of the environment's workflows" })
  @ApiOkResponse({ type: [EnvironmentTagDto] })
  async tags(@Auth() auth: AuthContext, @Param('environmentId') environmentId: string): Promise<EnvironmentTagDto[]> {
    return (await this.environments.tags(auth, environmentId)).map((name) => ({ name }));
  }

  @Post(':targetEnvironmentId/diff')
  @HttpCode(200)
  @ApiOperation({ summary: 'What publishing the source environment into this one would change' })
  @ApiOkResponse({ type: DiffEnvironmentResponseDto })
  async diff(
    @Auth() auth: AuthContext,
    @Param('targetEnvironmentId') targetEnvironmentId: string,
    @Body() body: DiffEnvironmentDto,
  ): Promise<DiffEnvironmentResponseDto> {
    return toDiffResponse(await this.sync.diff(auth.organizationId, targetEnvironmentId, body.sourceEnvironmentId));
  }

  @Post(':targetEnvironmentId/publish')
  @HttpCode(200)
  @ApiOperation({ summary: "Publish the source environment's workflows and layouts into this one, in one transaction" })
  @ApiOkResponse({ type: PublishEnvironmentResponseDto })
  async publish(
    @Auth() auth: AuthContext,
    @Param('targetEnvironmentId') targetEnvironmentId: string,
    @Body() body: PublishEnvironmentDto,
  ): Promise<PublishEnvironmentResponseDto> {
    const outcomes = await this.sync.publish(auth.organizationId, auth.actorId, targetEnvironmentId, {
      sourceEnvironmentId: body.sourceEnvironmentId,
      dryRun: body.dryRun,
      resources: toSelectors(body.resources),
    });
    return toPublishResponse(outcomes);
  }
}
