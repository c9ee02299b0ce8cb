import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toMessageResponse, toSubscriberResponse } from '#application';
import type { MessageView } from '#dal';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { MessageResponseDto } from '../messages/dto/message.dto.js';
import {
  BulkCreateSubscribersDto,
  BulkCreateSubscribersResponseDto,
  OnlineStatusSubscriberResponseDto,
  SubscriberResponseDto,
} from './dto/subscriber.dto.js';
import {
  FeedItemDto,
  FeedPageDto,
  FeedQueryDto,
  MarkMessagesDto,
  UnseenCountDto,
  UnseenCountQueryDto,
  UpdateCredentialsDto,
  UpdateOnlineStatusDto,
} from './dto/subscriber-v1.dto.js';
import { BulkUpsertSubscribersUseCase } from './use-cases/bulk-upsert-subscribers.use-case.js';
import { MarkMessagesUseCase } from './use-cases/mark-messages.use-case.js';
import { SubscriberFeedUseCase } from './use-cases/subscriber-feed.use-case.js';
import { UpdateCredentialsUseCase } from './use-cases/update-credentials.use-case.js';
import { UpdateOnlineStatusUseCase } from './use-cases/update-online-status.use-case.js';
import { Access } from '../auth/access-areas.js';

function toFeedItem(row: MessageView): FeedItemDto {
  // Left out rather than null: there are no message templates here.
  const { _messageTemplateId, ...message } = toMessageResponse(row);
  return { ...message, ...(row.jobId ? { _jobId: row.jobId } : {}), archived: row.archived };
}

@ApiTags('Subscribers')
@ApiErrorResponses()
@Access('content')
@Controller('v1/subscribers')
export class SubscribersV1Controller {
  constructor(
    private readonly bulkUpsert: BulkUpsertSubscribersUseCase,
    private readonly updateCredentials: UpdateCredentialsUseCase,
    private readonly updateOnlineStatus: UpdateOnlineStatusUseCase,
    private readonly markMessages: MarkMessagesUseCase,
    private readonly feedUseCase: SubscriberFeedUseCase,
  ) {}

  @Post('bulk')
  @ApiOperation({
    summary: 'Create or update up to 500 subscribers',
    description: 'Each item succeeds or fails on its own.',
  })
  @ApiCreatedResponse({ type: BulkCreateSubscribersResponseDto })
  async bulk(
    @Auth() auth: AuthContext,
    @Body() body: BulkCreateSubscribersDto,
  ): Promise<BulkCreateSubscribersResponseDto> {
    return this.bulkUpsert.execute(auth, body.subscribers);
  }

  @Patch(':subscriberId/credentials')
  @ApiOperation({ summary: 'Upsert provider credentials', description: 'Given deviceTokens replace the stored list.' })
  @ApiOkResponse({ type: SubscriberResponseDto })
  async credentials(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateCredentialsDto,
  ): Promise<SubscriberResponseDto> {
    return toSubscriberResponse(await this.updateCredentials.execute(auth, subscriberId, body));
  }

  @Patch(':subscriberId/online-status')
  @ApiOperation({ summary: 'Update subscriber online status' })
  @ApiOkResponse({ type: OnlineStatusSubscriberResponseDto })
  async onlineStatus(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateOnlineStatusDto,
  ): Promise<OnlineStatusSubscriberResponseDto> {
    return toSubscriberResponse(await this.updateOnlineStatus.execute(auth, subscriberId, body.isOnline));
  }

  @Post(':subscriberId/messages/mark-as')
  @ApiOperation({ summary: 'Mark in-app messages as read, unread, seen or unseen' })
  @ApiCreatedResponse({ type: [MessageResponseDto] })
  async markAs(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: MarkMessagesDto,
  ): Promise<MessageResponseDto[]> {
    const rows = await this.markMessages.execute(auth, subscriberId, body.messageId, body.markAs);
    return rows.map((row) => toMessageResponse(row));
  }

  @Get(':subscriberId/notifications/feed')
  @ApiOperation({ summary: "A subscriber's in-app messages, newest first" })
  @ApiOkResponse({ type: FeedPageDto })
  async feed(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Query() query: FeedQueryDto,
  ): Promise<FeedPageDto> {
    const page = await this.feedUseCase.feed(auth, subscriberId, query);
    return { ...page, data: page.data.map(toFeedItem) };
  }

  @Get(':subscriberId/notifications/unseen')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Count of unseen in-app messages',
    description: 'Seen ones with `seen=true`; the count stops at `limit` (default 100).',
  })
  @ApiOkResponse({ type: UnseenCountDto })
  async unseen(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Query() query: UnseenCountQueryDto,
  ): Promise<UnseenCountDto> {
    return { count: await this.feedUseCase.count(auth, subscriberId, query) };
  }
}
