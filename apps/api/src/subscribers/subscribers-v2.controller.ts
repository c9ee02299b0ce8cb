import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toSubscriberResponse } from '#application';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { DeletedDto } from '../http/deleted-response.js';
import {
  CreateSubscriberDto,
  CreateSubscriberQueryDto,
  ListSubscribersQueryDto,
  SubscriberCursorPageDto,
  SubscriberResponseDto,
  UpdateSubscriberDto,
} from './dto/subscriber.dto.js';
import { SubscribersService } from './subscribers.service.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Subscribers')
@ApiErrorResponses()
@Access('content')
@Controller('v2/subscribers')
export class SubscribersV2Controller {
  constructor(private readonly subscribers: SubscribersService) {}

  @Post()
  @ApiOperation({
    summary: 'Create or update a subscriber',
    description: 'Upsert by subscriberId; undefined fields are kept, null clears.',
  })
  @ApiCreatedResponse({ type: SubscriberResponseDto })
  async upsert(
    @Auth() auth: AuthContext,
    @Body() body: CreateSubscriberDto,
    @Query() query: CreateSubscriberQueryDto,
  ): Promise<SubscriberResponseDto> {
    return toSubscriberResponse(await this.subscribers.upsert(auth, body, query.failIfExists));
  }

  @Get()
  @ApiOperation({ summary: 'List subscribers', description: 'Newest first, cursor paginated.' })
  @ApiOkResponse({ type: SubscriberCursorPageDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListSubscribersQueryDto): Promise<SubscriberCursorPageDto> {
    const page = await this.subscribers.list(auth, query);
    return { ...page, data: page.data.map(toSubscriberResponse) };
  }

  @Get(':subscriberId')
  @ApiOperation({ summary: 'Get a subscriber' })
  @ApiOkResponse({ type: SubscriberResponseDto })
  async get(@Auth() auth: AuthContext, @Param('subscriberId') subscriberId: string): Promise<SubscriberResponseDto> {
    return toSubscriberResponse(await this.subscribers.get(auth, subscriberId));
  }

  @Patch(':subscriberId')
  @ApiOperation({ summary: 'Update a subscriber', description: 'Partial: undefined fields are kept, null clears.' })
  @ApiOkResponse({ type: SubscriberResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateSubscriberDto,
  ): Promise<SubscriberResponseDto> {
    return toSubscriberResponse(await this.subscribers.update(auth, subscriberId, body));
  }

  @Delete(':subscriberId')
  @ApiOperation({
    summary: 'Delete a subscriber',
    description:
      'Erases the subscriber at once: its personal fields, credentials, messages, notifications (with their jobs and ' +
      'execution details), preferences, topic memberships and its entries in trigger bodies. Reads answer 404 and it ' +
      'receives nothing until it is created again, from nothing.',
  })
  @ApiOkResponse({ type: DeletedDto })
  async delete(@Auth() auth: AuthContext, @Param('subscriberId') subscriberId: string): Promise<DeletedDto> {
    await this.subscribers.delete(auth, subscriberId);
    return DeletedDto.value;
  }
}
