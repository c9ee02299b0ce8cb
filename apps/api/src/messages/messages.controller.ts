import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toMessageResponse } from '#application';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { DeletedDto } from '../http/deleted-response.js';
import { DeleteByTransactionQueryDto } from './dto/delete-by-transaction.query.js';
import { ListMessagesQueryDto, MessagePageDto } from './dto/message.dto.js';
import { MessagesService } from './messages.service.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Messages')
@ApiErrorResponses()
@Access('content')
@Controller('v1/messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Get()
  @ApiOperation({
    summary: 'List messages',
    description: 'Newest first; filter by subscriberId (external), channel and transactionId.',
  })
  @ApiOkResponse({ type: MessagePageDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListMessagesQueryDto): Promise<MessagePageDto> {
    const page = await this.messages.list(auth, query);
    return { ...page, data: page.data.map((row) => toMessageResponse(row)) };
  }

  @Delete(':messageId')
  @ApiOperation({ summary: 'Delete a message', description: 'Removes it from lists, feeds and counts.' })
  @ApiOkResponse({ type: DeletedDto })
  async delete(@Auth() auth: AuthContext, @Param('messageId') messageId: string): Promise<DeletedDto> {
    await this.messages.delete(auth, messageId);
    return DeletedDto.value;
  }

  @Delete('transaction/:transactionId')
  @HttpCode(204)
  @ApiOperation({
    summary: "Delete a transaction's messages",
    description: 'All channels, or only `channel`; 404 when the transaction has no message left to delete.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  async deleteByTransaction(
    @Auth() auth: AuthContext,
    @Param('transactionId') transactionId: string,
    @Query() query: DeleteByTransactionQueryDto,
  ): Promise<void> {
    await this.messages.deleteByTransaction(auth, transactionId, query.channel);
  }
}
