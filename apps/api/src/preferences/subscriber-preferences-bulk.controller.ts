import { Body, Controller, Param, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { BulkPatchPreferencesDto, WorkflowPreferenceResultDto } from './dto/bulk-preferences.dto.js';
import { BulkUpdateSubscriberPreferencesUseCase } from './use-cases/bulk-update-subscriber-preferences.use-case.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Subscriber preferences')
@ApiErrorResponses()
@Access('content')
@Controller('v2/subscribers/:subscriberId/preferences/bulk')
export class SubscriberPreferencesBulkController {
  constructor(private readonly bulkUpdate: BulkUpdateSubscriberPreferencesUseCase) {}

  @Patch()
  @ApiOperation({
    summary: 'Update the preferences of up to 100 workflows',
    description: 'All workflows are resolved first: an unknown (404) or critical (400) one changes nothing.',
  })
  @ApiOkResponse({ type: [WorkflowPreferenceResultDto] })
  async update(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: BulkPatchPreferencesDto,
  ): Promise<WorkflowPreferenceResultDto[]> {
    return this.bulkUpdate.execute(auth, subscriberId, body);
  }
}
