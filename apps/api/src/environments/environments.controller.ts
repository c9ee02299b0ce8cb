import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '#common';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { DeletedDto } from '../http/deleted-response.js';
import { ReplayedWithout } from '../http/idempotency/idempotency.guard.js';
import { CreateEnvironmentDto, UpdateEnvironmentDto } from './dto/environment-input.dto.js';
import { EnvironmentResponseDto } from './dto/environment.dto.js';
import { EnvironmentsService } from './environments.service.js';
import { CreateEnvironmentUseCase } from './use-cases/create-environment.use-case.js';
import { DeleteEnvironmentUseCase } from './use-cases/delete-environment.use-case.js';
import { UpdateEnvironmentUseCase } from './use-cases/update-environment.use-case.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Environments')
@ApiErrorResponses()
@Access('administration')
@Controller('v1/environments')
export class EnvironmentsController {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly createEnvironment: CreateEnvironmentUseCase,
    private readonly updateEnvironment: UpdateEnvironmentUseCase,
    private readonly deleteEnvironment: DeleteEnvironmentUseCase,
    private readonly config: AppConfig,
  ) {}

  @Get('me')
  @ApiOperation({ summary: 'Get the environment of the API key' })
  @ApiOkResponse({ type: EnvironmentResponseDto })
  async me(@Auth() auth: AuthContext): Promise<EnvironmentResponseDto> {
    return EnvironmentResponseDto.from(await this.environments.current(auth), this.config.retention);
  }

  @Get()
  @ApiOperation({ summary: "List the organization's environments (never their API keys)" })
  @ApiOkResponse({ type: [EnvironmentResponseDto] })
  async list(@Auth() auth: AuthContext): Promise<EnvironmentResponseDto[]> {
    return (await this.environments.list(auth)).map((row) => EnvironmentResponseDto.from(row, this.config.retention));
  }

  @Post()
  // The key is shown once: an Idempotency-Key row never stores it, and a replay answers without it.
  @ReplayedWithout((body) => ({ ...(body as EnvironmentResponseDto), apiKeys: undefined }))
  @ApiOperation({ summary: 'Create an environment with its own API key (shown once, in apiKeys)' })
  @ApiCreatedResponse({ type: EnvironmentResponseDto })
  create(@Auth() auth: AuthContext, @Body() body: CreateEnvironmentDto): Promise<EnvironmentResponseDto> {
    return this.createEnvironment.execute(auth, body);
  }

  @Put(':environmentId')
  @ApiOperation({
    summary: 'Update the name, identifier, colour, parent, retention or HMAC requirement of an environment',
  })
  @ApiOkResponse({ type: EnvironmentResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('environmentId') environmentId: string,
    @Body() body: UpdateEnvironmentDto,
  ): Promise<EnvironmentResponseDto> {
    return EnvironmentResponseDto.from(
      await this.updateEnvironment.execute(auth, environmentId, body),
      this.config.retention,
    );
  }

  @Delete(':environmentId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Delete an environment and its API keys (not the one of the key in use, nor Development or Production)',
  })
  @ApiOkResponse({ type: DeletedDto })
  async delete(@Auth() auth: AuthContext, @Param('environmentId') environmentId: string): Promise<DeletedDto> {
    await this.deleteEnvironment.execute(auth, environmentId);
    return DeletedDto.value;
  }
}
