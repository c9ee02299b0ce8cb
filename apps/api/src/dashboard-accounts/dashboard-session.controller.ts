import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '#common';
import { DashboardSessionsService } from '#application';
import { Access } from '../auth/access-areas.js';
import { Dashboard, Public, type DashboardCaller } from '../auth/auth-context.js';
import { clearedSessionCookie, sessionCookie } from '../auth/dashboard-cookie.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import {
  ChangePasswordDto,
  DashboardSessionDto,
  DashboardSessionSummaryDto,
  LoginDto,
} from './dto/dashboard-session.dto.js';
import { DescribeSessionUseCase } from './use-cases/describe-session.use-case.js';
import { SignInUseCase } from './use-cases/sign-in.use-case.js';

@ApiTags('Dashboard')
@ApiErrorResponses()
@Access('ownSession')
@Controller('v1/dashboard')
export class DashboardSessionController {
  constructor(
    private readonly signIn: SignInUseCase,
    private readonly describe: DescribeSessionUseCase,
    private readonly sessions: DashboardSessionsService,
    private readonly config: AppConfig,
  ) {}

  @Post('session')
  @Public()
  @ApiOperation({ summary: 'Sign in: sets the session cookie and answers the CSRF token and the environments' })
  @ApiCreatedResponse({ type: DashboardSessionDto })
  async login(
    @Body() body: LoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DashboardSessionDto> {
    const { token, caller } = await this.signIn.execute(body, request);
    void reply.header('set-cookie', sessionCookie(request, token, this.config.dashboardSessionTtlMinutes * 60));
    return this.describe.execute(caller);
  }

  @Get('session')
  @ApiOperation({ summary: 'The signed-in user, the session, its CSRF token and the environments' })
  @ApiOkResponse({ type: DashboardSessionDto })
  current(@Dashboard() caller: DashboardCaller): Promise<DashboardSessionDto> {
    return this.describe.execute(caller);
  }

  @Delete('session')
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out: ends this session and clears its cookie' })
  @ApiNoContentResponse()
  async logout(
    @Dashboard() caller: DashboardCaller,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.revoke(caller.user.id, caller.session.id);
    void reply.header('set-cookie', clearedSessionCookie(request));
  }

  @Put('session/password')
  @HttpCode(204)
  @ApiOperation({ summary: "Change the user's password; the user's other sessions end" })
  @ApiNoContentResponse()
  async changePassword(@Dashboard() caller: DashboardCaller, @Body() body: ChangePasswordDto): Promise<void> {
    await this.sessions.changePassword(caller, body.currentPassword, body.newPassword);
  }

  @Get('sessions')
  @ApiOperation({ summary: "The user's sessions that have not expired, newest first" })
  @ApiOkResponse({ type: [DashboardSessionSummaryDto] })
  async list(@Dashboard() caller: DashboardCaller): Promise<DashboardSessionSummaryDto[]> {
    const sessions = await this.sessions.list(caller.user.id);
    return sessions.map((session) => DashboardSessionSummaryDto.from(session, caller.session.id));
  }

  @Delete('sessions/:sessionId')
  @HttpCode(204)
  @ApiOperation({ summary: "End one of the user's sessions (another browser, a lost laptop)" })
  @ApiNoContentResponse()
  async revoke(@Dashboard() caller: DashboardCaller, @Param('sessionId') sessionId: string): Promise<void> {
    await this.sessions.revoke(caller.user.id, sessionId);
  }
}
