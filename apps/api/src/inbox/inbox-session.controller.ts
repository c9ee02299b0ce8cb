import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { InboxSessionEnvelopeDto, StartInboxSessionDto } from './dto/inbox-session.dto.js';
import { StartInboxSessionUseCase } from './use-cases/start-inbox-session.use-case.js';

@ApiTags('Inbox')
@ApiErrorResponses()
@Public()
@Controller('v1/inbox/session')
export class InboxSessionController {
  constructor(private readonly startSession: StartInboxSessionUseCase) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Start an inbox session',
    description:
      "For a browser: the environment's applicationIdentifier and the subscriber (created or updated), plus subscriberHash when HMAC is required. Answers the session token and the unread counts.",
  })
  @ApiCreatedResponse({ type: InboxSessionEnvelopeDto })
  async start(@Body() body: StartInboxSessionDto, @Ip() clientAddress: string): Promise<InboxSessionEnvelopeDto> {
    return { data: await this.startSession.execute(body, clientAddress) };
  }
}
