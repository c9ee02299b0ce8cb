import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import {
  CreateLayoutDto,
  DuplicateLayoutDto,
  LayoutPreviewRequestDto,
  ListLayoutsQueryDto,
  UpdateLayoutDto,
} from './dto/layout-input.dto.js';
import {
  LayoutListResponseDto,
  LayoutPreviewResponseDto,
  LayoutResponseDto,
  LayoutUsageResponseDto,
} from './dto/layout-response.dto.js';
import { LayoutPreviewUseCase } from './use-cases/layout-preview.use-case.js';
import { LayoutsService } from './use-cases/layouts.service.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Layouts')
@ApiErrorResponses()
@Access('content')
@Controller('v2/layouts')
export class LayoutsController {
  constructor(
    private readonly layouts: LayoutsService,
    private readonly preview: LayoutPreviewUseCase,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a layout' })
  @ApiCreatedResponse({ type: LayoutResponseDto })
  async create(@Auth() auth: AuthContext, @Body() body: CreateLayoutDto): Promise<LayoutResponseDto> {
    return LayoutResponseDto.from(await this.layouts.create(auth, body));
  }

  @Get()
  @ApiOperation({ summary: 'List layouts' })
  @ApiOkResponse({ type: LayoutListResponseDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListLayoutsQueryDto): Promise<LayoutListResponseDto> {
    const { rows, total } = await this.layouts.list(auth, query);
    return { layouts: rows.map((row) => LayoutResponseDto.from(row)), totalCount: total };
  }

  @Get(':layoutId')
  @ApiOperation({ summary: 'Get a layout by layoutId or internal id' })
  @ApiOkResponse({ type: LayoutResponseDto })
  async get(@Auth() auth: AuthContext, @Param('layoutId') layoutId: string): Promise<LayoutResponseDto> {
    return LayoutResponseDto.from(await this.layouts.get(auth, layoutId));
  }

  @Put(':layoutId')
  @ApiOperation({ summary: 'Update a layout' })
  @ApiOkResponse({ type: LayoutResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('layoutId') layoutId: string,
    @Body() body: UpdateLayoutDto,
  ): Promise<LayoutResponseDto> {
    return LayoutResponseDto.from(await this.layouts.update(auth, layoutId, body));
  }

  @Delete(':layoutId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a layout that no workflow uses (409 names the workflows that do)' })
  @ApiNoContentResponse()
  async delete(@Auth() auth: AuthContext, @Param('layoutId') layoutId: string): Promise<void> {
    await this.layouts.delete(auth, layoutId);
  }

  @Post(':layoutId/duplicate')
  @ApiOperation({ summary: 'Duplicate a layout' })
  @ApiCreatedResponse({ type: LayoutResponseDto })
  async duplicate(
    @Auth() auth: AuthContext,
    @Param('layoutId') layoutId: string,
    @Body() body: DuplicateLayoutDto,
  ): Promise<LayoutResponseDto> {
    return LayoutResponseDto.from(await this.layouts.duplicate(auth, layoutId, body));
  }

  @Post(':layoutId/preview')
  @HttpCode(201)
  @ApiOperation({ summary: 'Render a layout around sample content' })
  @ApiCreatedResponse({ type: LayoutPreviewResponseDto })
  generatePreview(
    @Auth() auth: AuthContext,
    @Param('layoutId') layoutId: string,
    @Body() body: LayoutPreviewRequestDto,
  ): Promise<LayoutPreviewResponseDto> {
    return this.preview.execute(auth, layoutId, body);
  }

  @Get(':layoutId/usage')
  @ApiOperation({ summary: 'The workflows that use a layout' })
  @ApiOkResponse({ type: LayoutUsageResponseDto })
  async usage(@Auth() auth: AuthContext, @Param('layoutId') layoutId: string): Promise<LayoutUsageResponseDto> {
    return { workflows: await this.layouts.usage(auth, layoutId) };
  }
}
