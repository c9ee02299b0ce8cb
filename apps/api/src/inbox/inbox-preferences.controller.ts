import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { ChannelPreferencesDto } from '../preferences/dto/preferences.dto.js';
import {
  InboxBulkPreferencesDto,
  InboxGlobalPreferencesDto,
  InboxPreferenceDto,
  InboxPreferencesQueryDto,
} from './dto/inbox-preferences.dto.js';
import { InboxSessionAuth, InboxSubscriber } from './inbox-session.guard.js';
import type { InboxSession } from './session-token.js';
import { InboxPreferencesUseCase } from './use-cases/inbox-preferences.use-case.js';

/** The session's subscriber's preferences; @novu/js unwraps every answer from `{ data }`. */
@ApiTags('Inbox')
@ApiErrorResponses()
@InboxSessionAuth()
@Controller('v1/inbox/preferences')
export class InboxPreferencesController {
  constructor(private readonly preferences: InboxPreferencesUseCase) {}

  @Get()
  @ApiOperation({ summary: 'List preferences', description: 'The global entry first, then one per workflow.' })
  @ApiOkResponse({ type: [InboxPreferenceDto] })
  async list(
    @InboxSubscriber() session: InboxSession,
    @Query() query: InboxPreferencesQueryDto,
  ): Promise<{ data: InboxPreferenceDto[] }> {
    return { data: await this.preferences.list(session, query) };
  }

  @Get('global')
  @ApiOperation({ summary: 'The global preference, with the schedule' })
  @ApiOkResponse({ type: InboxPreferenceDto })
  async global(@InboxSubscriber() session: InboxSession): Promise<{ data: InboxPreferenceDto }> {
    return { data: await this.preferences.global(session) };
  }

  @Patch()
  @ApiOperation({ summary: 'Update the global preference', description: 'Channels and/or the schedule.' })
  @ApiOkResponse({ type: InboxPreferenceDto })
  async updateGlobal(
    @InboxSubscriber() session: InboxSession,
    @Body() body: InboxGlobalPreferencesDto,
  ): Promise<{ data: InboxPreferenceDto }> {
    return { data: await this.preferences.updateGlobal(session, body) };
  }

  // Before ':workflowId', which would otherwise take "bulk" as a workflow.
  @Patch('bulk')
  @ApiOperation({ summary: 'Update several workflow preferences' })
  @ApiOkResponse({ type: [InboxPreferenceDto] })
  async updateMany(
    @InboxSubscriber() session: InboxSession,
    @Body() body: InboxBulkPreferencesDto,
  ): Promise<{ data: InboxPreferenceDto[] }> {
    return { data: await this.preferences.updateMany(session, body) };
  }

  @Patch(':workflowId')
  @ApiOperation({ summary: "Update one workflow's preference" })
  @ApiOkResponse({ type: InboxPreferenceDto })
  async updateWorkflow(
    @InboxSubscriber() session: InboxSession,
    @Param('workflowId') workflowId: string,
    @Body() body: ChannelPreferencesDto,
  ): Promise<{ data: InboxPreferenceDto }> {
    return { data: await this.preferences.updateWorkflow(session, workflowId, body) };
  }
}
