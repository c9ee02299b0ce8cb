import { Injectable } from '@nestjs/common';
import { EnvironmentRepository } from '#dal';
import type { DashboardCaller } from '../../auth/auth-context.js';
import {
  DashboardEnvironmentDto,
  DashboardSessionDto,
  DashboardSessionSummaryDto,
} from '../dto/dashboard-session.dto.js';
import { DashboardUserDto } from '../dto/dashboard-user.dto.js';

/** What the dashboard needs after a login or a reload: who, until when, the CSRF token, the environments. */
@Injectable()
export class DescribeSessionUseCase {
  constructor(private readonly environments: EnvironmentRepository) {}

  async execute(caller: DashboardCaller): Promise<DashboardSessionDto> {
    const environments = await this.environments.listOrganizationEnvironments(caller.user.organizationId);
    return {
      user: DashboardUserDto.from(caller.user),
      session: DashboardSessionSummaryDto.from(caller.session, caller.session.id),
      csrfToken: caller.csrfToken,
      environments: environments.map((environment) => DashboardEnvironmentDto.from(environment)),
    };
  }
}
