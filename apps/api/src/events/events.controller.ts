import { Body, Controller, Delete, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { RequestId } from '../http/request-id.js';
import { BroadcastEventDto } from './dto/broadcast-event.dto.js';
import { BulkTriggerEventDto, TriggerEventDto, TriggerResponseDto } from './dto/trigger-event.dto.js';
import { BroadcastEventUseCase } from './use-cases/broadcast-event.use-case.js';
import { BulkTriggerEventUseCase } from './use-cases/bulk-trigger-event.use-case.js';
import { CancelTriggerUseCase } from './use-cases/cancel-trigger.use-case.js';
import { TriggerEventUseCase } from './use-cases/trigger-event.use-case.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Events')
@ApiErrorResponses()
@Access('content')
@Controller('v1/events/trigger')
export class EventsController {
  constructor(
    private readonly triggerEvent: TriggerEventUseCase,
    private readonly bulkTrigger: BulkTriggerEventUseCase,
    private readonly cancelTrigger: CancelTriggerUseCase,
    private readonly broadcastEvent: BroadcastEventUseCase,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Trigger event',
    description: 'Runs the workflow named by `name` for every recipient of `to`.',
  })
  @ApiCreatedResponse({ type: TriggerResponseDto })
  async trigger(
    @Auth() auth: AuthContext,
    @Body() body: TriggerEventDto,
    @RequestId() requestId: string,
  ): Promise<TriggerResponseDto> {
    return this.triggerEvent.execute(auth, body, requestId);
  }

  @Post('broadcast')
  @ApiOperation({
    summary: 'Broadcast event to all subscribers',
    description:
      'Runs the workflow named by `name` for every subscriber of the environment, fanned out in chunks like a topic.',
  })
  @ApiCreatedResponse({ type: TriggerResponseDto })
  async broadcast(
    @Auth() auth: AuthContext,
    @Body() body: BroadcastEventDto,
    @RequestId() requestId: string,
  ): Promise<TriggerResponseDto> {
    return this.broadcastEvent.execute(auth, body, requestId);
  }

  @Post('bulk')
  @ApiOperation({
    summary: 'Bulk trigger event',
    description: '1 to 100 events; each answers in its own slot, in input order.',
  })
  @ApiBody({ type: BulkTriggerEventDto })
  @ApiCreatedResponse({ type: [TriggerResponseDto] })
  async bulk(
    @Auth() auth: AuthContext,
    @Body() body: BulkTriggerEventDto,
    @RequestId() requestId: string,
  ): Promise<TriggerResponseDto[]> {
    return this.bulkTrigger.execute(auth, body.events, requestId);
  }

  @Delete(':transactionId')
  @ApiOperation({
    summary: 'Cancel triggered event',
    description: 'Cancels the pending and delayed jobs of the transaction.',
  })
  @ApiOkResponse({ description: 'true when something was canceled', type: Boolean })
  async cancel(@Auth() auth: AuthContext, @Param('transactionId') transactionId: string): Promise<boolean> {
    return this.cancelTrigger.execute(auth, transactionId);
  }
}
