import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DashboardUsersService } from '#application';
import { Access } from '../auth/access-areas.js';
import { Dashboard, type DashboardCaller } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { CreateDashboardUserDto, DashboardUserDto, SetDashboardRoleDto } from './dto/dashboard-user.dto.js';

/** The organization's dashboard users: admins only. */
@ApiTags('Dashboard')
@ApiErrorResponses()
@Access('userManagement')
@Controller('v1/dashboard/users')
export class DashboardUsersController {
  constructor(private readonly users: DashboardUsersService) {}

  @Get()
  @ApiOperation({ summary: "The organization's dashboard users" })
  @ApiOkResponse({ type: [DashboardUserDto] })
  async list(@Dashboard() caller: DashboardCaller): Promise<DashboardUserDto[]> {
    return (await this.users.list(caller.user.organizationId)).map((user) => DashboardUserDto.from(user));
  }

  @Post()
  @ApiOperation({ summary: 'Create a dashboard user with a role and a first password' })
  @ApiCreatedResponse({ type: DashboardUserDto })
  async create(@Dashboard() caller: DashboardCaller, @Body() body: CreateDashboardUserDto): Promise<DashboardUserDto> {
    return DashboardUserDto.from(await this.users.create(caller.user.organizationId, body));
  }

  @Patch(':userId')
  @ApiOperation({ summary: "Change a user's role; the user's sessions end" })
  @ApiOkResponse({ type: DashboardUserDto })
  async setRole(
    @Dashboard() caller: DashboardCaller,
    @Param('userId') userId: string,
    @Body() body: SetDashboardRoleDto,
  ): Promise<DashboardUserDto> {
    return DashboardUserDto.from(await this.users.setRole(caller.user.organizationId, userId, body.role));
  }

  @Delete(':userId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a user; the user’s sessions end' })
  @ApiNoContentResponse()
  async delete(@Dashboard() caller: DashboardCaller, @Param('userId') userId: string): Promise<void> {
    await this.users.delete(caller.user.organizationId, userId);
  }
}
