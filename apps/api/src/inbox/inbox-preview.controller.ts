import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { DomainError } from '#common';
import { TenancyService } from '#application';
import { SubscriberRepository } from '#dal';
import { Access } from '../auth/access-areas.js';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { hmacHex } from './use-cases/subscriber-hash.verifier.js';

class InboxPreviewDto {
  @ApiProperty({ description: 'The subscriberHash an Inbox for this subscriber starts its session with' })
  subscriberHash: string;
}

/**
 * The dashboard shows a subscriber's Inbox with Novu's own client, which must prove the subscriberId
 * with a hash where the environment requires one. The server signs it, so no API key reaches the
 * browser; a write (editors and admins), since the hash opens that subscriber's inbox.
 */
@ApiTags('Dashboard')
@ApiErrorResponses()
@Access('content')
@Controller('v1/dashboard/inbox-preview')
export class InboxPreviewController {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly tenancy: TenancyService,
  ) {}

  @Post(':subscriberId')
  @HttpCode(200)
  @ApiOperation({
    summary: "Sign an existing subscriber's inbox session",
    description: "Made with one of the environment's API keys the server can recover (any of them verifies).",
  })
  @ApiOkResponse({ type: InboxPreviewDto })
  async sign(@Auth() auth: AuthContext, @Param('subscriberId') subscriberId: string): Promise<InboxPreviewDto> {
    const subscriber = await this.subscribers.findBySubscriberId(auth.environmentId, subscriberId);
    if (!subscriber) throw new DomainError('SUBSCRIBER_NOT_FOUND', `Subscriber ${subscriberId} not found`);
    const [signer] = await this.tenancy.recoverableKeys(auth.environmentId);
    if (!signer)
      throw new DomainError(
        'CONFLICT',
        'None of this environment’s API keys can be recovered to sign the session: create a new API key',
      );
    return { subscriberHash: hmacHex(signer.key, subscriberId) };
  }
}
