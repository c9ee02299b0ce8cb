import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DomainError, isId } from '#common';
import { ACTION_TYPES, MessageStateService, notYetMarked, toMessageResponse, type ActionType } from '#application';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { MessageResponseDto } from '../messages/dto/message.dto.js';
import { MarkAllMessagesDto, UpdateMessageActionDto } from './dto/subscriber-messages-v1.dto.js';
import { Access } from '../auth/access-areas.js';

/** Novu's v1 message actions of a subscriber (`subscribers.messages.markAll` and `updateAsSeen`). */
@ApiTags('Subscribers')
@ApiErrorResponses()
@Access('content')
@Controller('v1/subscribers/:subscriberId/messages')
export class SubscriberMessagesV1Controller {
  constructor(private readonly state: MessageStateService) {}

  @Post('mark-all')
  @ApiOperation({
    summary: "Mark all of a subscriber's in-app messages",
    description: 'As read, seen, unread or unseen; answers how many messages changed (0 when all already were).',
  })
  @ApiCreatedResponse({ type: Number })
  async markAll(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: MarkAllMessagesDto,
  ): Promise<number> {
    const feedIds =
      body.feedIdentifier === undefined
        ? {}
        : { feedIds: Array.isArray(body.feedIdentifier) ? body.feedIdentifier : [body.feedIdentifier] };
    const filter = { ...feedIds, ...notYetMarked(body.markAs) };
    const rows = await this.state.applyAll(auth.environmentId, subscriberId, filter, { type: body.markAs });
    return rows.length;
  }

  @Post(':messageId/actions/:type')
  @ApiOperation({
    summary: "Set a message's action status",
    description: 'The primary or secondary button action as pending or done, with its result payload.',
  })
  @ApiParam({ name: 'type', enum: ACTION_TYPES })
  @ApiCreatedResponse({ type: MessageResponseDto })
  async updateAction(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Param('messageId') messageId: string,
    @Param('type') type: string,
    @Body() body: UpdateMessageActionDto,
  ): Promise<MessageResponseDto> {
    if (!isId(messageId)) throw DomainError.validation('messageId', 'messageId must be a UUID', messageId);
    if (!(ACTION_TYPES as readonly string[]).includes(type))
      throw DomainError.validation('type', 'type must be primary or secondary', type);
    const { row } = await this.state.apply(auth.environmentId, subscriberId, messageId, {
      type: 'setAction',
      action: type as ActionType,
      status: body.status,
      payload: body.payload,
    });
    const [view] = await this.state.views(auth.environmentId, [row]);
    return toMessageResponse(view);
  }
}
