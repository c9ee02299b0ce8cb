import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { GetPreferencesQueryDto, PatchPreferencesDto, PreferencesResponseDto } from './dto/preferences.dto.js';
import { GetSubscriberPreferencesUseCase } from './use-cases/get-subscriber-preferences.use-case.js';
import { UpdateSubscriberPreferencesUseCase } from './use-cases/update-subscriber-preferences.use-case.js';
import { Access } from '../auth/access-areas.js';

// Its own controller beside the subscribers module's /v2/subscribers routes: preferences are their own aggregate.
@ApiTags('Subscriber preferences')
@ApiErrorResponses()
@Access('content')
@Controller('v2/subscribers/:subscriberId/preferences')
export class SubscriberPreferencesController {
  constructor(
    private readonly getPreferences: GetSubscriberPreferencesUseCase,
    private readonly updatePreferences: UpdateSubscriberPreferencesUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Retrieve subscriber preferences' })
  @ApiOkResponse({ type: PreferencesResponseDto })
  async get(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Query() query: GetPreferencesQueryDto,
  ): Promise<PreferencesResponseDto> {
    return this.getPreferences.execute(auth, subscriberId, query.criticality);
  }

  @Patch()
  @ApiOperation({ summary: 'Update subscriber preferences (global, or one workflow with workflowId)' })
  @ApiOkResponse({ type: PreferencesResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: PatchPreferencesDto,
  ): Promise<PreferencesResponseDto> {
    return this.updatePreferences.execute(auth, subscriberId, body);
  }
}
