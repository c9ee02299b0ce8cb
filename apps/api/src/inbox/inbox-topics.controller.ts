import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiForbiddenResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '#common';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import {
  InboxSubscriptionBodyDto,
  InboxSubscriptionEnvelopeDto,
  InboxSubscriptionListDto,
} from './dto/inbox-topics.dto.js';
import { InboxSessionAuth, InboxSubscriber } from './inbox-session.guard.js';
import type { InboxSession } from './session-token.js';
import { InboxTopicSubscriptionsUseCase } from './use-cases/inbox-topic-subscriptions.use-case.js';

/** The session's subscriber's own topic subscriptions. */
@ApiTags('Inbox')
@ApiErrorResponses()
@InboxSessionAuth()
@Controller('v1/inbox')
export class InboxTopicsController {
  constructor(private readonly subscriptions: InboxTopicSubscriptionsUseCase) {}

  @Get('topics/:key/subscriptions')
  @ApiOperation({ summary: "The subscriber's subscription to a topic (none or one)" })
  @ApiOkResponse({ type: InboxSubscriptionListDto })
  async list(@InboxSubscriber() session: InboxSession, @Param('key') key: string): Promise<InboxSubscriptionListDto> {
    return { data: await this.subscriptions.list(session, key) };
  }

  @Post('topics/:key/subscriptions')
  @ApiOperation({
    summary: 'Subscribe to a topic',
    description:
      "Only a topic the environment opens to inbox sessions (none by default, unlike Novu), created when it does not exist; at most the environment's cap of topics per subscriber.",
  })
  @ApiOkResponse({ type: InboxSubscriptionEnvelopeDto })
  @ApiForbiddenResponse({ description: 'The topic is not open to inbox sessions, or the subscriber is at the cap' })
  async subscribe(
    @InboxSubscriber() session: InboxSession,
    @Param('key') key: string,
    @Body() body: InboxSubscriptionBodyDto,
  ): Promise<InboxSubscriptionEnvelopeDto> {
    return { data: await this.subscriptions.subscribe(session, key, body) };
  }

  @Get('topics/:key/subscriptions/:identifier')
  @ApiOperation({ summary: 'One subscription', description: 'data is null when the subscriber is not subscribed.' })
  @ApiOkResponse({ type: InboxSubscriptionEnvelopeDto })
  async get(
    @InboxSubscriber() session: InboxSession,
    @Param('key') key: string,
    @Param('identifier') identifier: string,
  ): Promise<InboxSubscriptionEnvelopeDto> {
    return { data: await this.subscriptions.get(session, key, identifier) };
  }

  @Patch('topics/:key/subscriptions/:identifier')
  @ApiOperation({ summary: 'Update a subscription', description: 'Its name and preferences are not stored.' })
  @ApiOkResponse({ type: InboxSubscriptionEnvelopeDto })
  async update(
    @InboxSubscriber() session: InboxSession,
    @Param('key') key: string,
    @Param('identifier') identifier: string,
    @Body() _body: InboxSubscriptionBodyDto,
  ): Promise<InboxSubscriptionEnvelopeDto> {
    return { data: await this.subscriptions.update(session, key, identifier) };
  }

  @Delete('topics/:key/subscriptions/:identifier')
  @HttpCode(204)
  @ApiOperation({ summary: 'Unsubscribe from a topic' })
  @ApiNoContentResponse()
  async unsubscribe(
    @InboxSubscriber() session: InboxSession,
    @Param('key') key: string,
    @Param('identifier') identifier: string,
  ): Promise<void> {
    await this.subscriptions.unsubscribe(session, key, identifier);
  }

  @Patch('subscriptions/:identifier/preferences/:workflowId')
  @ApiOperation({ summary: 'Not supported: per-subscription preferences are not stored (400)' })
  subscriptionPreference(): never {
    throw new DomainError(
      'BAD_REQUEST',
      'Per-subscription workflow preferences are not supported: a topic member receives what its own preferences allow (PATCH /v1/inbox/preferences/{workflowId})',
    );
  }
}
