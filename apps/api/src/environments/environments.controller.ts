import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { EnvironmentResponseDto } from './environment.dto.js';
import { EnvironmentsService } from './environments.service.js';

@ApiTags('Environments')
@ApiErrorResponses()
@Controller('v1/environments')
export class EnvironmentsController {
  constructor(private readonly environments: EnvironmentsService) {}

  @Get('me')
  @ApiOperation({ summary: 'Get the environment of the API key' })
  @ApiOkResponse({ type: EnvironmentResponseDto })
  async me(@Auth() auth: AuthContext): Promise<EnvironmentResponseDto> {
    return EnvironmentResponseDto.from(await this.environments.current(auth));
  }
}
