import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { TopicSubscriberDto, UpdateTopicSubscriptionDto } from './dto/topic-subscription.dto.js';
import { SubscriptionDetailsDto, SubscriptionDto } from './dto/topic.dto.js';
import { TopicSubscriptionUseCase } from './use-cases/topic-subscription.use-case.js';
import { Access } from '../auth/access-areas.js';

/** One subscription of a topic: Novu's v2 routes by identifier and its v1 member check. */
@ApiTags('Topics')
@ApiErrorResponses()
@Access('content')
@Controller()
export class TopicSubscriptionController {
  constructor(private readonly subscription: TopicSubscriptionUseCase) {}

  @Get('v2/topics/:key/subscriptions/:identifier')
  @ApiOperation({
    summary: 'Get a topic subscription',
    description: 'By its identifier, `tk_{key}:si_{subscriberId}`.',
  })
  @ApiOkResponse({ type: SubscriptionDetailsDto })
  async get(
    @Auth() auth: AuthContext,
    @Param('key') key: string,
    @Param('identifier') identifier: string,
  ): Promise<SubscriptionDetailsDto> {
    return this.subscription.get(auth, key, identifier);
  }

  @Patch('v2/topics/:key/subscriptions/:identifier')
  @ApiOperation({
    summary: 'Update a topic subscription',
    description:
      'Sets its `name` and `preferences` (a field left out is kept; `preferences: []` clears them, so every ' +
      'trigger of the topic reaches the subscriber again). An invalid condition is a 422 naming its path.',
  })
  @ApiOkResponse({ type: SubscriptionDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('key') key: string,
    @Param('identifier') identifier: string,
    @Body() body: UpdateTopicSubscriptionDto,
  ): Promise<SubscriptionDto> {
    return this.subscription.update(auth, key, identifier, body);
  }

  @Get('v1/topics/:key/subscribers/:externalSubscriberId')
  @ApiOperation({
    summary: 'Check topic membership',
    description: 'The membership of the subscriber in the topic; 404 when the subscriber is not a member.',
  })
  @ApiOkResponse({ type: TopicSubscriberDto })
  async member(
    @Auth() auth: AuthContext,
    @Param('key') key: string,
    @Param('externalSubscriberId') subscriberId: string,
  ): Promise<TopicSubscriberDto> {
    return this.subscription.member(auth, key, subscriberId);
  }
}
