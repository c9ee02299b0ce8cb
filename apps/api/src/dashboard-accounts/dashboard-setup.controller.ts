import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DashboardUsersService } from '#application';
import { Public } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { SetupDto } from './dto/dashboard-session.dto.js';
import { DashboardUserDto } from './dto/dashboard-user.dto.js';

/** The first admin, from the one-time link a boot prints while no dashboard user exists. */
@ApiTags('Dashboard')
@ApiErrorResponses()
@Public()
@Controller('v1/dashboard/setup')
export class DashboardSetupController {
  constructor(private readonly users: DashboardUsersService) {}

  @Post()
  @ApiOperation({ summary: 'Create the first admin with the setup link’s token (refused once any user exists)' })
  @ApiCreatedResponse({ type: DashboardUserDto })
  async setup(@Body() body: SetupDto): Promise<DashboardUserDto> {
    return DashboardUserDto.from(await this.users.completeSetup(body.token, body));
  }
}
