import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { ContextsService } from './contexts.service.js';
import {
  ContextCursorPageDto,
  ContextPathDto,
  ContextResponseDto,
  CreateContextDto,
  ListContextsQueryDto,
  UpdateContextDto,
} from './dto/context.dto.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Contexts')
@ApiErrorResponses()
@Access('content')
@Controller('v2/contexts')
export class ContextsController {
  constructor(private readonly contexts: ContextsService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a context',
    description: 'A type, an id unique per type, and optional data (at most 64 KB). 409 when it exists already.',
  })
  @ApiCreatedResponse({ type: ContextResponseDto })
  async create(@Auth() auth: AuthContext, @Body() body: CreateContextDto): Promise<ContextResponseDto> {
    return ContextResponseDto.from(await this.contexts.create(auth, body));
  }

  @Get()
  @ApiOperation({ summary: 'List contexts', description: 'Newest first unless orderDirection=ASC, cursor paginated.' })
  @ApiOkResponse({ type: ContextCursorPageDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListContextsQueryDto): Promise<ContextCursorPageDto> {
    const page = await this.contexts.list(auth, query);
    return { ...page, data: page.data.map((row) => ContextResponseDto.from(row)) };
  }

  @Get(':type/:id')
  @ApiOperation({ summary: 'Retrieve a context' })
  @ApiOkResponse({ type: ContextResponseDto })
  async get(@Auth() auth: AuthContext, @Param() path: ContextPathDto): Promise<ContextResponseDto> {
    return ContextResponseDto.from(await this.contexts.get(auth, path.type, path.id));
  }

  @Patch(':type/:id')
  @ApiOperation({ summary: 'Update a context', description: "Replaces the context's data." })
  @ApiOkResponse({ type: ContextResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param() path: ContextPathDto,
    @Body() body: UpdateContextDto,
  ): Promise<ContextResponseDto> {
    return ContextResponseDto.from(await this.contexts.replaceData(auth, path.type, path.id, body.data));
  }

  @Delete(':type/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a context',
    description: 'Messages sent with it keep their contextKeys; a later trigger naming it creates it again.',
  })
  @ApiNoContentResponse()
  async delete(@Auth() auth: AuthContext, @Param() path: ContextPathDto): Promise<void> {
    await this.contexts.delete(auth, path.type, path.id);
  }
}
