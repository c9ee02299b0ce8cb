import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { SubscriberTopicsPageDto, SubscriberTopicsQueryDto } from './dto/subscriber-topics.dto.js';
import { SubscriberTopicsUseCase } from './use-cases/subscriber-topics.use-case.js';
import { Access } from '../auth/access-areas.js';

// In the topics module: a subscriber's subscriptions are topic memberships, read from the subscriber's side.
@ApiTags('Topics')
@ApiErrorResponses()
@Access('content')
@Controller('v2/subscribers/:subscriberId/subscriptions')
export class SubscriberTopicsController {
  constructor(private readonly subscriberTopics: SubscriberTopicsUseCase) {}

  @Get()
  @ApiOperation({
    summary: "List a subscriber's topic subscriptions",
    description: 'Newest topic first, cursor paginated (the cursor is the topic id).',
  })
  @ApiOkResponse({ type: SubscriberTopicsPageDto })
  async list(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Query() query: SubscriberTopicsQueryDto,
  ): Promise<SubscriberTopicsPageDto> {
    return this.subscriberTopics.list(auth, subscriberId, query);
  }
}
