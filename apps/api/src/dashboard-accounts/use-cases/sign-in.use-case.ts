import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DashboardSessionsService } from '#application';
import type { DashboardCaller } from '../../auth/auth-context.js';
import { LoginRateLimiter } from '../login-rate-limiter.js';
import type { LoginDto } from '../dto/dashboard-session.dto.js';

/** A login: within the attempt budgets, a new session for the right password. */
@Injectable()
export class SignInUseCase {
  constructor(
    private readonly limiter: LoginRateLimiter,
    private readonly sessions: DashboardSessionsService,
  ) {}

  async execute(body: LoginDto, request: FastifyRequest): Promise<{ token: string; caller: DashboardCaller }> {
    await this.limiter.take(body.email, request.ip);
    const userAgent = request.headers['user-agent']?.slice(0, 500) ?? null;
    const signedIn = await this.sessions.signIn(body.email, body.password, { userAgent, clientAddress: request.ip });
    const { token, csrfToken, session, user } = signedIn;
    return { token, caller: { session, user, csrfToken } };
  }
}
