import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, UseInterceptors } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { ReplayedWithout } from '../http/idempotency/idempotency.guard.js';
import {
  CreateIntegrationDto,
  IntegrationIdParam,
  IntegrationResponseDto,
  UpdateIntegrationDto,
} from './dto/integration.dto.js';
import { DashboardWithoutSecrets, withoutCredentials } from './dashboard-without-secrets.interceptor.js';
import { IntegrationPresenter } from './integration-presenter.js';
import { CreateIntegrationUseCase } from './use-cases/create-integration.use-case.js';
import { DeleteIntegrationUseCase } from './use-cases/delete-integration.use-case.js';
import { ListIntegrationsUseCase } from './use-cases/list-integrations.use-case.js';
import { SetPrimaryIntegrationUseCase } from './use-cases/set-primary-integration.use-case.js';
import { UpdateIntegrationUseCase } from './use-cases/update-integration.use-case.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Integrations')
@ApiErrorResponses()
// An Idempotency-Key keeps and replays integrations without their credentials (never a secret in the store).
@ReplayedWithout(withoutCredentials)
@UseInterceptors(DashboardWithoutSecrets)
@Access('content')
@Controller('v1/integrations')
export class IntegrationsController {
  constructor(
    private readonly presenter: IntegrationPresenter,
    private readonly createIntegration: CreateIntegrationUseCase,
    private readonly updateIntegration: UpdateIntegrationUseCase,
    private readonly deleteIntegration: DeleteIntegrationUseCase,
    private readonly listIntegrations: ListIntegrationsUseCase,
    private readonly setPrimaryIntegration: SetPrimaryIntegrationUseCase,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an integration (the first active email or sms integration becomes primary)' })
  @ApiCreatedResponse({ type: IntegrationResponseDto })
  async create(@Auth() auth: AuthContext, @Body() body: CreateIntegrationDto): Promise<IntegrationResponseDto> {
    return this.presenter.present(await this.createIntegration.execute(auth, body));
  }

  @Get()
  @ApiOperation({ summary: "List the environment's integrations" })
  @ApiOkResponse({ type: [IntegrationResponseDto] })
  async list(@Auth() auth: AuthContext): Promise<IntegrationResponseDto[]> {
    return (await this.listIntegrations.inEnvironment(auth)).map((row) => this.presenter.present(row));
  }

  @Get('active')
  @ApiOperation({
    summary: 'List active integrations of every environment of the organization',
    description:
      "Credentials are shown for the key's environment only; other environments' integrations have `credentials: {}`.",
  })
  @ApiOkResponse({ type: [IntegrationResponseDto] })
  async active(@Auth() auth: AuthContext): Promise<IntegrationResponseDto[]> {
    return (await this.listIntegrations.activeInOrganization(auth)).map((row) =>
      this.presenter.presentFor(auth.environmentId, row),
    );
  }

  @Put(':integrationId')
  @ApiOperation({
    summary: 'Update an integration (partial)',
    description:
      'From a dashboard session, which never reads secrets back, `credentials` is merged into the stored ones: a field left out keeps its value, an empty string removes it.',
  })
  @ApiOkResponse({ type: IntegrationResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param() params: IntegrationIdParam,
    @Body() body: UpdateIntegrationDto,
    @Req() request: FastifyRequest,
  ): Promise<IntegrationResponseDto> {
    const credentials = request.dashboardCaller ? 'merge' : 'replace';
    return this.presenter.present(await this.updateIntegration.execute(auth, params.integrationId, body, credentials));
  }

  @Delete(':integrationId')
  @ApiOperation({ summary: 'Delete an integration (soft); a deleted primary hands over to the next active one' })
  @ApiOkResponse({ type: [IntegrationResponseDto], description: "The environment's remaining integrations" })
  async delete(@Auth() auth: AuthContext, @Param() params: IntegrationIdParam): Promise<IntegrationResponseDto[]> {
    await this.deleteIntegration.execute(auth, params.integrationId);
    return this.list(auth);
  }

  @Post(':integrationId/set-primary')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set an integration as primary for its channel in its environment' })
  @ApiOkResponse({ type: IntegrationResponseDto })
  async setPrimary(@Auth() auth: AuthContext, @Param() params: IntegrationIdParam): Promise<IntegrationResponseDto> {
    return this.presenter.present(await this.setPrimaryIntegration.execute(auth, params.integrationId));
  }
}
