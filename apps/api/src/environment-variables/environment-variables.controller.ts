import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import {
  CreateEnvironmentVariableDto,
  EnvironmentVariableResponseDto,
  EnvironmentVariablesQueryDto,
  EnvironmentVariableUsageResponseDto,
  UpdateEnvironmentVariableDto,
} from './dto/environment-variable.dto.js';
import { EnvironmentVariablesService } from './use-cases/environment-variables.service.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Environment variables')
@ApiErrorResponses()
@Access('content')
@Controller('v1/environment-variables')
export class EnvironmentVariablesController {
  constructor(private readonly variables: EnvironmentVariablesService) {}

  // Novu answers this create with 200, and its SDK expects exactly that.
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create an environment variable' })
  @ApiOkResponse({ type: EnvironmentVariableResponseDto })
  async create(
    @Auth() auth: AuthContext,
    @Body() body: CreateEnvironmentVariableDto,
  ): Promise<EnvironmentVariableResponseDto> {
    return EnvironmentVariableResponseDto.from(await this.variables.create(auth, body));
  }

  @Get()
  @ApiOperation({ summary: "List the organization's environment variables" })
  @ApiOkResponse({ type: [EnvironmentVariableResponseDto] })
  async list(
    @Auth() auth: AuthContext,
    @Query() query: EnvironmentVariablesQueryDto,
  ): Promise<EnvironmentVariableResponseDto[]> {
    return (await this.variables.list(auth, query.search)).map((row) => EnvironmentVariableResponseDto.from(row));
  }

  @Get(':variableKey')
  @ApiOperation({ summary: 'Get an environment variable' })
  @ApiOkResponse({ type: EnvironmentVariableResponseDto })
  async get(@Auth() auth: AuthContext, @Param('variableKey') key: string): Promise<EnvironmentVariableResponseDto> {
    return EnvironmentVariableResponseDto.from(await this.variables.get(auth, key));
  }

  @Patch(':variableKey')
  @ApiOperation({ summary: 'Update an environment variable' })
  @ApiOkResponse({ type: EnvironmentVariableResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('variableKey') key: string,
    @Body() body: UpdateEnvironmentVariableDto,
  ): Promise<EnvironmentVariableResponseDto> {
    return EnvironmentVariableResponseDto.from(await this.variables.update(auth, key, body));
  }

  @Delete(':variableKey')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an environment variable' })
  @ApiNoContentResponse()
  async delete(@Auth() auth: AuthContext, @Param('variableKey') key: string): Promise<void> {
    await this.variables.delete(auth, key);
  }

  @Get(':variableKey/usage')
  @ApiOperation({ summary: "The workflows of the caller's environment that read the variable" })
  @ApiOkResponse({ type: EnvironmentVariableUsageResponseDto })
  async usage(
    @Auth() auth: AuthContext,
    @Param('variableKey') key: string,
  ): Promise<EnvironmentVariableUsageResponseDto> {
    return { workflows: await this.variables.usage(auth, key) };
  }
}
