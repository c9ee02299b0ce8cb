import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import {
  CreatedWebhookEndpointResponseDto,
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
  WebhookDeliveriesQueryDto,
  WebhookDeliveryPageDto,
  WebhookDeliveryResponseDto,
  WebhookEndpointListDto,
  WebhookEndpointResponseDto,
  WebhookSecretResponseDto,
} from './dto/webhook-endpoint.dto.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Webhooks')
@ApiErrorResponses()
@Access('administration')
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @ApiOperation({ summary: 'Create a webhook endpoint; the answer holds its signing secret' })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointResponseDto })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: CreateWebhookEndpointDto,
  ): Promise<CreatedWebhookEndpointResponseDto> {
    const { row, secret } = await this.endpoints.create(auth, body);
    return { ...WebhookEndpointResponseDto.from(row), secret };
  }

  @Get()
  @ApiOperation({ summary: "List the environment's webhook endpoints" })
  @ApiOkResponse({ type: WebhookEndpointListDto })
  async list(@Auth() auth: AuthContext): Promise<WebhookEndpointListDto> {
    return { data: (await this.endpoints.list(auth)).map((row) => WebhookEndpointResponseDto.from(row)) };
  }

  @Get(':endpointId')
  @ApiOperation({ summary: 'Get a webhook endpoint' })
  @ApiOkResponse({ type: WebhookEndpointResponseDto })
  async get(@Auth() auth: AuthContext, @Param('endpointId') id: string): Promise<WebhookEndpointResponseDto> {
    return WebhookEndpointResponseDto.from(await this.endpoints.get(auth, id));
  }

  @Patch(':endpointId')
  @ApiOperation({ summary: 'Update a webhook endpoint' })
  @ApiOkResponse({ type: WebhookEndpointResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('endpointId') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointResponseDto> {
    return WebhookEndpointResponseDto.from(await this.endpoints.update(auth, id, body));
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook endpoint and its deliveries' })
  @ApiNoContentResponse()
  async delete(@Auth() auth: AuthContext, @Param('endpointId') id: string): Promise<void> {
    await this.endpoints.delete(auth, id);
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new signing secret; the previous one keeps signing for 24 hours' })
  @ApiOkResponse({ type: WebhookSecretResponseDto })
  async rotateSecret(@Auth() auth: AuthContext, @Param('endpointId') id: string): Promise<WebhookSecretResponseDto> {
    const { secret, previousSecretExpiresAt } = await this.endpoints.rotateSecret(auth, id);
    return { secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
  }

  @Get(':endpointId/deliveries')
  @ApiOperation({ summary: "The endpoint's deliveries, newest first" })
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  async deliveries(
    @Auth() auth: AuthContext,
    @Param('endpointId') id: string,
    @Query() query: WebhookDeliveriesQueryDto,
  ): Promise<WebhookDeliveryPageDto> {
    const { rows, hasMore } = await this.endpoints.deliveriesOf(auth, id, query);
    return { data: rows.map((row) => WebhookDeliveryResponseDto.from(row)), hasMore };
  }

  @Post(':endpointId/deliveries/:deliveryId/replay')
  @ApiOperation({ summary: "Send a delivery's event again (same webhook-id), as a new delivery" })
  @ApiCreatedResponse({ type: WebhookDeliveryResponseDto })
  async replay(
    @Auth() auth: AuthContext,
    @Param('endpointId') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryResponseDto> {
    return WebhookDeliveryResponseDto.from(await this.endpoints.replay(auth, id, deliveryId));
  }
}
