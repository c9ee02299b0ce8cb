import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { AcknowledgedDto } from '../http/deleted-response.js';
import { CursorQueryDto } from '../http/pagination.dto.js';
import { CreateSubscriptionsBodyDto, UpdateTopicDto } from './dto/topic-subscription.dto.js';
import {
  CreateTopicDto,
  CreateTopicQueryDto,
  ListTopicsQueryDto,
  SubscriptionCursorPageDto,
  SubscriptionsBodyDto,
  SubscriptionsResultDto,
  TopicCursorPageDto,
  TopicResponseDto,
} from './dto/topic.dto.js';
import { TopicsService } from './topics.service.js';
import { TopicSubscriptionsUseCase } from './use-cases/topic-subscriptions.use-case.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Topics')
@ApiErrorResponses()
@Access('content')
@Controller('v2/topics')
export class TopicsController {
  constructor(
    private readonly topics: TopicsService,
    private readonly subscriptions: TopicSubscriptionsUseCase,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create or update a topic',
    description: 'Upsert by key; an omitted name keeps the stored one.',
  })
  @ApiCreatedResponse({ type: TopicResponseDto })
  async upsert(
    @Auth() auth: AuthContext,
    @Body() body: CreateTopicDto,
    @Query() query: CreateTopicQueryDto,
  ): Promise<TopicResponseDto> {
    return TopicResponseDto.from(await this.topics.upsert(auth, body, query.failIfExists));
  }

  @Get()
  @ApiOperation({ summary: 'List topics', description: 'Newest first, cursor paginated.' })
  @ApiOkResponse({ type: TopicCursorPageDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListTopicsQueryDto): Promise<TopicCursorPageDto> {
    const page = await this.topics.list(auth, query);
    return { ...page, data: page.data.map((row) => TopicResponseDto.from(row)) };
  }

  @Get(':key')
  @ApiOperation({ summary: 'Get a topic' })
  @ApiOkResponse({ type: TopicResponseDto })
  async get(@Auth() auth: AuthContext, @Param('key') key: string): Promise<TopicResponseDto> {
    return TopicResponseDto.from(await this.topics.get(auth, key));
  }

  @Patch(':key')
  @ApiOperation({
    summary: 'Update a topic',
    description: 'Renames the topic; an omitted name keeps it. `data` is accepted but not stored.',
  })
  @ApiOkResponse({ type: TopicResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('key') key: string,
    @Body() body: UpdateTopicDto,
  ): Promise<TopicResponseDto> {
    return TopicResponseDto.from(await this.topics.update(auth, key, body));
  }

  @Delete(':key')
  @ApiOperation({ summary: 'Delete a topic and its subscriptions' })
  @ApiOkResponse({ type: AcknowledgedDto })
  async delete(@Auth() auth: AuthContext, @Param('key') key: string): Promise<AcknowledgedDto> {
    await this.topics.delete(auth, key);
    return AcknowledgedDto.value;
  }

  @Post(':key/subscriptions')
  @ApiOperation({
    summary: 'Subscribe subscribers to a topic',
    description:
      'Creates the topic if missing (`name` names it); unknown subscribers are listed in `errors`. An item may be ' +
      'a subscriberId or `{ identifier, subscriberId, name? }`; the subscription keeps the default identifier ' +
      '`tk_{key}:si_{subscriberId}`. `context` and `preferences` apply to every subscription of the call, an ' +
      'existing one included; an invalid condition is a 422 naming its path, and nothing is written.',
  })
  @ApiCreatedResponse({ type: SubscriptionsResultDto })
  async subscribe(
    @Auth() auth: AuthContext,
    @Param('key') key: string,
    @Body() body: CreateSubscriptionsBodyDto,
  ): Promise<SubscriptionsResultDto> {
    return this.subscriptions.subscribe(auth, key, body);
  }

  @Delete(':key/subscriptions')
  @ApiOperation({ summary: 'Unsubscribe subscribers from a topic' })
  @ApiOkResponse({ type: SubscriptionsResultDto })
  async unsubscribe(
    @Auth() auth: AuthContext,
    @Param('key') key: string,
    @Body() body: SubscriptionsBodyDto,
  ): Promise<SubscriptionsResultDto> {
    return this.subscriptions.unsubscribe(auth, key, body.subscriptions);
  }

  @Get(':key/subscriptions')
  @ApiOperation({
    summary: "List a topic's subscriptions",
    description: 'Ordered by internal subscriber id, cursor paginated.',
  })
  @ApiOkResponse({ type: SubscriptionCursorPageDto })
  async listSubscriptions(
    @Auth() auth: AuthContext,
    @Param('key') key: string,
    @Query() query: CursorQueryDto,
  ): Promise<SubscriptionCursorPageDto> {
    return this.subscriptions.list(auth, key, query);
  }
}
